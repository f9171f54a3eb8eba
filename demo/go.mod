module github.com/crawlsched/crawlsched-go/demo

go 1.24

require github.com/crawlsched/crawlsched-go v0.0.0

replace github.com/crawlsched/crawlsched-go => ../bindings/go
