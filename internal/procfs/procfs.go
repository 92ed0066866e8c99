package procfs

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// KB returns the size on the "field:   value kB" line of the file at path, in bytes, or
// 0 when the file cannot be read, has no such line, or the value is not a positive
// number.
func KB(path, field string) int64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == field+":" && fields[2] == "kB" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
