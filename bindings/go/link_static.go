//go:build !crawlsched_pkgconfig

package crawlsched

// Default: build against the source tree, so `go test` works in a checkout
// after `cargo build --release`. Use the build tag crawlsched_pkgconfig to
// link the installed library instead (see README.md).

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: ${SRCDIR}/../../target/release/libcrawlsched.a -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc
*/
import "C"
