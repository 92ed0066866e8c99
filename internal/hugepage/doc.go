// Package hugepage asks the kernel to back a large buffer with transparent huge pages.
//
// A data matrix of thousands of images is hundreds of megabytes that are written once,
// front to back, as the images load. On Linux with transparent huge pages in "madvise"
// mode (the default of many distributions) every 4 KiB page of it is faulted in
// separately; advising the buffer MADV_HUGEPAGE lets the kernel fault in 2 MiB at a
// time, which makes writing a fresh buffer several times faster on this project's build
// machine (docs/DESIGN.md, "Measurements behind the code"). The products that read the matrix
// again and again also take fewer TLB misses. The advice is only a hint: the memory
// stays the Go runtime's, and nothing changes where the kernel ignores it.
package hugepage
