module github.com/crawlsched/crawlsched/examples/go

go 1.24

require github.com/crawlsched/crawlsched/bindings/go v0.0.0

replace github.com/crawlsched/crawlsched/bindings/go => ../../bindings/go
