module github.com/crawlsched/crawlsched-go

go 1.24
