package procfs

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Room is the memory the process can still take, in bytes, as three limits say it: what
// the machine has free (MemAvailable), what the address-space limit (RLIMIT_AS,
// `ulimit -v`) leaves above the process's mapped size as it started, and what the memory cgroup's
// limit (v2 memory.max, v1 memory.limit_in_bytes) leaves above its usage. A limit that
// does not apply, or cannot be read, is 0; one already exceeded is 1 byte.
type Room struct {
	Free, Address, Cgroup int64
}

// System is where Room reads: the root of /proc and of /sys/fs/cgroup, and the
// address-space limit. Tests point it at files of their own.
type System struct {
	Proc, Cgroup string
	AddressLimit func() (uint64, bool) // the soft RLIMIT_AS; false when unlimited
	// Mapped is the process's mapped size the address-space limit is counted from; 0
	// reads VmSize from Proc now.
	Mapped int64
}

// Host is the running system, its mapped size read as the program starts: read later
// it varies from run to run with the threads started and the memory their C libraries
// reserved, and a size advised in one run would not fit the next.
var Host = System{Proc: "/proc", Cgroup: "/sys/fs/cgroup", AddressLimit: addressLimit,
	Mapped: KB("/proc/self/status", "VmSize")}

// Room measures the memory the process can still take on s.
func (s System) Room() Room {
	atLeast1 := func(v int64) int64 { return max(v, 1) }
	r := Room{Free: KB(filepath.Join(s.Proc, "meminfo"), "MemAvailable")}
	if s.AddressLimit != nil {
		if lim, ok := s.AddressLimit(); ok && lim < 1<<62 {
			mapped := s.Mapped
			if mapped == 0 {
				mapped = KB(filepath.Join(s.Proc, "self/status"), "VmSize")
			}
			// In steps of 256 MB, so that the noise in what was mapped at the start
			// does not change the room from run to run.
			r.Address = atLeast1((int64(lim) - mapped) &^ (256<<20 - 1))
		}
	}
	if limit, usage, ok := s.cgroupMemory(); ok {
		r.Cgroup = atLeast1(limit - usage)
	}
	return r
}

// cgroupMemory reads the limit and usage of the process's memory cgroup, from the paths
// /proc/self/cgroup names (v2: "0::/path"; v1: "N:memory:/path" or
// "N:…,memory,…:/path"), or at the cgroup root where a container shows only its own.
// ok is false when there is no limit.
func (s System) cgroupMemory() (limit, usage int64, ok bool) {
	f, err := os.Open(filepath.Join(s.Proc, "self/cgroup"))
	if err != nil {
		return 0, 0, false
	}
	defer f.Close()
	type place struct{ dir, limit, usage string }
	var places []place
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			places = append(places,
				place{filepath.Join(s.Cgroup, parts[2]), "memory.max", "memory.current"},
				place{filepath.Join(s.Cgroup, "unified", parts[2]), "memory.max", "memory.current"},
				place{s.Cgroup, "memory.max", "memory.current"})
		case slices.Contains(strings.Split(parts[1], ","), "memory"):
			places = append(places,
				place{filepath.Join(s.Cgroup, "memory", parts[2]), "memory.limit_in_bytes", "memory.usage_in_bytes"},
				place{filepath.Join(s.Cgroup, "memory"), "memory.limit_in_bytes", "memory.usage_in_bytes"})
		}
	}
	for _, p := range places {
		l, lok := readBytes(filepath.Join(p.dir, p.limit))
		if !lok {
			continue
		}
		u, _ := readBytes(filepath.Join(p.dir, p.usage))
		if l >= 1<<62 { // "max", or v1's page-rounded 2⁶³
			continue
		}
		if !ok || l-u < limit-usage {
			limit, usage, ok = l, u, true
		}
	}
	return limit, usage, ok
}

// readBytes reads a cgroup file of one number ("max" is no limit: 1<<62).
func readBytes(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v := strings.TrimSpace(string(b))
	if v == "max" {
		return 1 << 62, true
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil && n >= 0
}
