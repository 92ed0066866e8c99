// Package procfs reads sizes from Linux's /proc files: the memory the machine has free
// (/proc/meminfo) and the process's peak resident memory (/proc/self/status). Both
// list "Name:   value kB" lines.
package procfs
