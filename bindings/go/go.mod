module github.com/crawlsched/crawlsched/bindings/go

go 1.24
