package samplegen

import (
	"bytes"
	"image"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"strings"
)

// Image is one rendered sample image.
type Image struct {
	Name string // file name, e.g. "scene_01.jpg"
	Data []byte // the encoded file
	// Code is the true binary code, one '0' or '1' per feature in the order of
	// Set.FeatureNames ("" if the truth is unknown).
	Code string
}

// Set is one built-in sample data set.
type Set struct {
	Name         string   // folder name, e.g. "tabletop"
	Images       []Image  // in natural order of their names
	FeatureNames []string // the features the code bits stand for, in code order
}

// File is one file of a set as written to disk: an image, truth.csv or features.txt.
type File struct {
	Name string
	Data []byte
}

// Files returns the set's images followed by truth.csv (header "image,code", then one
// line per image: its name and true code) and features.txt (the feature names in code
// order, one per line).
func (s Set) Files() []File {
	files := make([]File, 0, len(s.Images)+2)
	var truth bytes.Buffer
	truth.WriteString("image,code\n")
	for _, im := range s.Images {
		files = append(files, File{Name: im.Name, Data: im.Data})
		truth.WriteString(im.Name + "," + im.Code + "\n")
	}
	features := strings.Join(s.FeatureNames, "\n") + "\n"
	return append(files,
		File{Name: "truth.csv", Data: truth.Bytes()},
		File{Name: "features.txt", Data: []byte(features)})
}

// All renders every built-in set, in the order tabletop, dice, tetris, cards, faces.
func All() []Set {
	return []Set{Tabletop(), Dice(), Tetris(), Cards(), Faces()}
}

// newRand returns the generator of one set; each set has its own fixed seed so that
// changing one set never changes another.
func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, 0x5eed_fea7_1ab5))
}

// bernoulliCodes draws n codes of k independent fair bits.
func bernoulliCodes(rng *rand.Rand, n, k int) [][]bool {
	codes := make([][]bool, n)
	for i := range codes {
		codes[i] = make([]bool, k)
		for j := range codes[i] {
			codes[i][j] = rng.IntN(2) == 1
		}
	}
	return codes
}

// coveringCodes draws n codes of k independent bits, each 1 with probability p, in which
// every one of the 2^k combinations occurs (n ≥ 2^k): the combinations once each, the
// rest drawn at random, all shuffled. Draws whose sample is unlucky — a bit's frequency
// more than 0.04 from p, or two bits correlated by more than 0.08 — are redrawn, because
// chance correlations between features make the wrong local optima of the feature
// learners more attractive than they are in expectation.
func coveringCodes(rng *rand.Rand, n, k int, p float64) [][]bool {
	for {
		codes := drawCovering(rng, n, k, p)
		if balanced(codes, p, 0.04, 0.08) {
			return codes
		}
	}
}

func drawCovering(rng *rand.Rand, n, k int, p float64) [][]bool {
	codes := make([][]bool, n)
	for i := range codes {
		codes[i] = make([]bool, k)
		if i < 1<<k {
			for j := range k {
				codes[i][j] = i>>(k-1-j)&1 == 1
			}
			continue
		}
		for j := range k {
			codes[i][j] = rng.Float64() < p
		}
	}
	rng.Shuffle(n, func(a, b int) { codes[a], codes[b] = codes[b], codes[a] })
	return codes
}

// balanced reports whether every bit's frequency is within dp of p and every two bits'
// sample correlation is within dr of zero.
func balanced(codes [][]bool, p, dp, dr float64) bool {
	n, k := float64(len(codes)), len(codes[0])
	freq := make([]float64, k)
	for _, c := range codes {
		for j, on := range c {
			if on {
				freq[j]++
			}
		}
	}
	for j := range freq {
		freq[j] /= n
		if math.Abs(freq[j]-p) > dp {
			return false
		}
	}
	for a := range k {
		for b := a + 1; b < k; b++ {
			both := 0.0
			for _, c := range codes {
				if c[a] && c[b] {
					both++
				}
			}
			cov := both/n - freq[a]*freq[b]
			if math.Abs(cov) > dr*math.Sqrt(freq[a]*(1-freq[a])*freq[b]*(1-freq[b])) {
				return false
			}
		}
	}
	return true
}

// codeString writes a code as '0'/'1' characters.
func codeString(c []bool) string {
	b := make([]byte, len(c))
	for j, on := range c {
		b[j] = '0'
		if on {
			b[j] = '1'
		}
	}
	return string(b)
}

func encodePNG(m image.Image) []byte {
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, m); err != nil {
		panic("samplegen: png encode of an in-memory image: " + err.Error()) // cannot fail
	}
	return buf.Bytes()
}

func encodeJPEG(m image.Image, quality int) []byte {
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, m, &jpeg.Options{Quality: quality}); err != nil {
		panic("samplegen: jpeg encode of an in-memory image: " + err.Error()) // cannot fail
	}
	return buf.Bytes()
}

// addNoise adds independent N(0, sd²) noise to every sample.
func (c *canvas) addNoise(rng *rand.Rand, sd float64) {
	for i := range c.pix {
		c.pix[i] += sd * rng.NormFloat64()
	}
}
