// Package atomicfile writes a file through a temporary one renamed into place, so that
// a failed export or save leaves an earlier file intact (Write), and refuses to replace
// a file it was told to keep (ErrExists).
package atomicfile
