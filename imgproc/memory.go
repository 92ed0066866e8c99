package imgproc

import (
	"fmt"
	"image"
	"math"
	"strings"

	"featurelab/internal/procfs"
)

// bytesPerSample is the memory one sample of the data matrix takes (float32).
const bytesPerSample = 4

// DataBytes is the memory the data matrix of n images of p samples each takes.
func DataBytes(n, p int) int64 { return int64(n) * int64(p) * bytesPerSample }

// MemoryBudget is the memory a load and its run may take when Options.Memory is 0
// (BudgetOf the running system's procfs.Room).
func MemoryBudget() int64 { return BudgetOf(procfs.Host.Room()) }

// budgetLimit names what holds the running system's budget to its size, for a refusal:
// "", free memory, or a hard limit.
func budgetLimit() string {
	room := procfs.Host.Room()
	switch b := BudgetOf(room); {
	case room.Address > 0 && b == max(room.Address/4*3, 1):
		return " under the address-space limit (ulimit -v)"
	case room.Cgroup > 0 && b == max(room.Cgroup/4*3, 1):
		return " under the cgroup's memory limit"
	}
	return ""
}

// BudgetOf is the memory a load and its run may take in room: half of what the machine
// has free, which others share, and at most three quarters of what the address-space
// limit or the cgroup leaves, hard limits past which the process dies (the rest is the
// Go runtime's own, its address space reserved ahead and its garbage not yet collected);
// DefaultMemory where none says.
func BudgetOf(room procfs.Room) int64 {
	budget := int64(0)
	take := func(v int64) {
		if v > 0 && (budget == 0 || v < budget) {
			budget = v
		}
	}
	take(max(room.Free/2, min(room.Free, 1)))
	take(max(room.Address/4*3, min(room.Address, 1)))
	take(max(room.Cgroup/4*3, min(room.Cgroup, 1)))
	if budget == 0 {
		return DefaultMemory
	}
	return max(budget, 1)
}

// BytesText formats a size in bytes for a message: "11.5 GB", "640 MB".
func BytesText(b int64) string { return bytesText(b) }

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

// minAdvisedSide is the shortest side a refusal suggests loading at: a picture smaller
// than 8 pixels on a side shows no feature worth learning, so below it the advice is
// fewer images or more memory.
const minAdvisedSide = 8

// FittingSize returns the largest size at size's aspect ratio, smaller than size and no
// shorter than 8 pixels on a side (nor than size's own shorter side), for which fits
// holds; ok is false when none does. andSmaller reports whether every smaller size down
// to that floor fits too, so that advice says "or smaller" only where it is so: a PCA's
// working memory does not always fall with the size, as its method changes with the
// shape (2 000 colour images under 30 MB fit at 15×15 and 10×10, not at 12×12).
func FittingSize(size image.Point, fits func(image.Point) bool) (best image.Point, andSmaller, ok bool) {
	sizes := advisedSizes(size)
	// Every size is tried, each an estimate of a few multiplications; a picture's longer
	// side is at most a few thousand pixels.
	for i := len(sizes) - 1; i >= 0; i-- {
		if fits(sizes[i]) {
			best, ok, andSmaller = sizes[i], true, true
			for _, s := range sizes[:i] {
				andSmaller = andSmaller && fits(s)
			}
			break
		}
	}
	return best, andSmaller, ok
}

// advisedSizes are the sizes at size's aspect ratio, smaller than size and no shorter
// than minAdvisedSide (nor than size's own shorter side), one per pixel of the longer
// side, smallest first.
func advisedSizes(size image.Point) []image.Point {
	long, short := size.X, size.Y
	if short > long {
		long, short = short, long
	}
	floor := min(minAdvisedSide, short)
	var sizes []image.Point
	for l := 1; l < long; l++ {
		s := max(1, int(math.Round(float64(l)*float64(short)/float64(long))))
		if s < floor {
			continue
		}
		if size.X >= size.Y {
			sizes = append(sizes, image.Pt(l, s))
		} else {
			sizes = append(sizes, image.Pt(s, l))
		}
	}
	return sizes
}

// smallestAdvised is the smallest size FittingSize tries for size, or size itself.
func smallestAdvised(size image.Point) image.Point {
	if sizes := advisedSizes(size); len(sizes) > 0 {
		return sizes[0]
	}
	return size
}

// sizeText words a size advised to load at, with "or smaller" where every smaller one
// fits too (FittingSize).
func sizeText(s image.Point, andSmaller bool) string {
	if andSmaller {
		return fmt.Sprintf("%dx%d or smaller", s.X, s.Y)
	}
	return fmt.Sprintf("%dx%d", s.X, s.Y)
}

// smallerAdvice says how to load ds within opt.Memory, having tried what it advises with
// need, the estimate the refusal made (the pixels and the run after the load) for the
// images at a size in so many channels: the largest size at ds's aspect ratio that fits
// in its colours; grey, where it fits at a larger size than that (and the caller has a
// grey mode); and where no size fits, fewer images or more memory. Advice that worked out the size from a bytes-per-sample ratio
// did not converge, as the PCA's share does not shrink with the pixels.
func smallerAdvice(ds *Dataset, opt Options, need func(size image.Point, channels int) int64) string {
	size := image.Pt(ds.Width, ds.Height)
	fitsIn := func(channels int) func(image.Point) bool {
		return func(s image.Point) bool { return need(s, channels) <= opt.Memory }
	}
	area := func(s image.Point) int64 { return int64(s.X) * int64(s.Y) }
	var ways []string
	colour, andSmaller, ok := FittingSize(size, fitsIn(ds.Channels))
	if ok {
		ways = append(ways, fmt.Sprintf("load them at %s (--size, the Dataset panel's Size)", sizeText(colour, andSmaller)))
	}
	if ds.Channels == 3 && !opt.NoGray {
		if fitsIn(1)(size) {
			ways = append(ways, "in grey (--gray)")
		} else if grey, andSmaller, gok := FittingSize(size, fitsIn(1)); gok && (!ok || area(grey) > area(colour)) {
			ways = append(ways, fmt.Sprintf("in grey at %s (--gray --size %dx%d)", sizeText(grey, andSmaller), grey.X, grey.Y))
		}
	}
	if len(ways) > 0 {
		return strings.Join(ways, " or ")
	}
	least, channels, grey := smallestAdvised(size), ds.Channels, ""
	if ds.Channels == 3 && !opt.NoGray {
		channels, grey = 1, " in grey"
	}
	return fmt.Sprintf("even at %dx%d%s they would need %s; load fewer images, or give it more memory (FEATURELAB_MEMORY)",
		least.X, least.Y, grey, bytesText(need(least, channels)))
}
