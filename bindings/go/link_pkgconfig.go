//go:build !crawlsched_static

package crawlsched

// The C flags come from pkg-config: `crawlsched.pc` links the shared
// libcrawlsched.so.N (its rpath, outside the system library directories,
// lets the program run without LD_LIBRARY_PATH). Build with the tag
// crawlsched_static to link the static library instead (link_static.go).
// In a checkout, scripts/go-env points PKG_CONFIG_PATH at target/pkgconfig
// (`make pc-uninstalled`), the same files for the tree's release build.

/*
#cgo pkg-config: crawlsched
*/
import "C"
