//go:build crawlsched_static

package crawlsched

// With `-tags crawlsched_static`: `crawlsched-static.pc` names the static
// libcrawlsched.a itself (not -lcrawlsched, which the linker would resolve
// to the shared library when both are installed) and the system libraries
// Rust's standard library needs; the program then needs no libcrawlsched.so.

/*
#cgo pkg-config: crawlsched-static
*/
import "C"
