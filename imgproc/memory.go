package imgproc

import (
	"bufio"
	"fmt"
	"image"
	"os"
	"strconv"
	"strings"
)

// bytesPerSample is the memory one sample of the data matrix takes (float32).
const bytesPerSample = 4

// availableMemory is the memory the machine has free (Linux's MemAvailable), in bytes, or
// 0 where it does not say.
func availableMemory() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "MemAvailable:   23456789 kB"
		fields := strings.Fields(sc.Text())
		if len(fields) == 3 && fields[0] == "MemAvailable:" && fields[2] == "kB" {
			kb, err := strconv.ParseInt(fields[1], 10, 64)
			if err != nil || kb <= 0 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// bytesText formats a size in bytes for a message: "11.5 GB", "640 MB".
func bytesText(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.0f MB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d kB", (b+1023)>>10)
}

// smallerAdvice says how to load ds within the memory budget: the largest working size at
// its aspect ratio that fits, and grey where it is colour. perSample is the bytes the
// load and the run need per sample of the data matrix, which the PCA's share makes more
// than bytesPerSample.
func smallerAdvice(ds *Dataset, opt Options, perSample float64) string {
	n := int64(len(ds.Names))
	px := int64(float64(opt.Memory) / perSample / float64(n) / float64(ds.Channels)) // pixels per image that fit
	advice := "fewer images"
	if px >= 1 {
		size := workingSize(image.Pt(ds.Width, ds.Height), image.Point{}, px)
		advice = fmt.Sprintf("load them at %dx%d or smaller (--size, the Dataset panel's Size)", size.X, size.Y)
	}
	if ds.Channels == 3 {
		advice += " or in grey (--gray), a third of the memory"
	}
	return advice
}
