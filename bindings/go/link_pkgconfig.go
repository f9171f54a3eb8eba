//go:build crawlsched_pkgconfig

package crawlsched

// With `-tags crawlsched_pkgconfig`, flags come from the installed
// crawlsched.pc (`pkg-config --cflags --libs crawlsched`): the shared
// libcrawlsched.so.N by default, or the static library with
// PKG_CONFIG="pkg-config --static" / CGO_LDFLAGS as usual.

/*
#cgo pkg-config: crawlsched
*/
import "C"
