// Package procfs reads sizes from Linux's /proc and /sys/fs/cgroup files: the memory the
// machine has free (/proc/meminfo), the process's peak resident memory
// (/proc/self/status), and the room the address-space limit and the memory cgroup leave
// it (Room).
package procfs
