package hugepage

import (
	"syscall"
	"unsafe"
)

// size is the huge page size on x86-64 and arm64 with 4 KiB base pages.
const size = 2 << 20

// madvHugepage is Linux's MADV_HUGEPAGE.
const madvHugepage = 14

// Advise marks the huge-page-aligned interior of b's memory MADV_HUGEPAGE. Buffers
// smaller than two huge pages are left alone: they gain nothing.
func Advise[T any](b []T) {
	if len(b) == 0 {
		return
	}
	var zero T
	n := uintptr(len(b)) * unsafe.Sizeof(zero)
	if n < 2*size {
		return
	}
	bytes := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), n)
	start := uintptr(unsafe.Pointer(&bytes[0]))
	lo := (start+size-1)&^(size-1) - start // offsets of the aligned interior
	hi := (start+n)&^(size-1) - start
	if hi <= lo {
		return
	}
	// An error (a kernel without transparent huge pages) leaves the buffer as it was.
	_ = syscall.Madvise(bytes[lo:hi], madvHugepage)
}
