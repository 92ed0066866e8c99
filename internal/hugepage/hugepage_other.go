//go:build !linux

package hugepage

// Advise does nothing where the kernel has no MADV_HUGEPAGE.
func Advise[T any](b []T) {}
