package samplegen

import (
	"bytes"
	"encoding/csv"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	_ "image/jpeg"
	_ "image/png"

	"featurelab/internal/accuracy"
)

// rendered renders every set once for all the tests of the package.
var rendered = sync.OnceValue(All)

func set(t *testing.T, name string) Set {
	t.Helper()
	for _, s := range rendered() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no set %q", name)
	return Set{}
}

// decoded is one image decoded to samples in [0, 1], laid out v[(y*w+x)*ch+c].
type decoded struct {
	w, h, ch int
	v        []float64
	format   string
}

var (
	decodedMu sync.Mutex
	decodedBy = map[string]decoded{} // by image name; names are unique across sets
)

// decode decodes an image once for all the tests (the race detector makes decoding slow).
func decode(t *testing.T, im Image) decoded {
	t.Helper()
	decodedMu.Lock()
	defer decodedMu.Unlock()
	if d, ok := decodedBy[im.Name]; ok {
		return d
	}
	d := decodeNew(t, im)
	decodedBy[im.Name] = d
	return d
}

func decodeNew(t *testing.T, im Image) decoded {
	t.Helper()
	if strings.HasSuffix(im.Name, ".pfm") {
		pix, w, h := decodePFM(t, im.Data)
		v := make([]float64, len(pix))
		for i, p := range pix {
			v[i] = float64(p)
		}
		return decoded{w: w, h: h, ch: 1, v: v, format: "pfm"}
	}
	m, format, err := image.Decode(bytes.NewReader(im.Data))
	if err != nil {
		t.Fatalf("%s: %v", im.Name, err)
	}
	b := m.Bounds()
	d := decoded{w: b.Dx(), h: b.Dy(), ch: 3, format: format}
	// Fast paths for what the standard decoders return for our files; the race detector
	// makes the generic At path slow.
	switch m := m.(type) {
	case *image.Gray:
		d.ch = 1
		d.v = make([]float64, 0, d.w*d.h)
		for y := range d.h {
			for _, p := range m.Pix[y*m.Stride : y*m.Stride+d.w] {
				d.v = append(d.v, float64(p)/255)
			}
		}
	case *image.RGBA:
		d.v = make([]float64, 0, 3*d.w*d.h)
		for y := range d.h {
			row := m.Pix[y*m.Stride : y*m.Stride+4*d.w]
			for x := 0; x < len(row); x += 4 {
				d.v = append(d.v, float64(row[x])/255, float64(row[x+1])/255, float64(row[x+2])/255)
			}
		}
	case *image.YCbCr:
		d.v = make([]float64, 0, 3*d.w*d.h)
		for y := range d.h {
			for x := range d.w {
				yi, ci := m.YOffset(x, y), m.COffset(x, y)
				r, g, bl := color.YCbCrToRGB(m.Y[yi], m.Cb[ci], m.Cr[ci])
				d.v = append(d.v, float64(r)/255, float64(g)/255, float64(bl)/255)
			}
		}
	default:
		t.Fatalf("%s: unexpected image type %T", im.Name, m)
	}
	return d
}

func TestSets(t *testing.T) {
	tests := []struct {
		name       string
		n, k       int
		w, h, ch   int
		format     string
		prefix     string
		covering   bool // all 2^k codes occur
		bernoulli  bool // bits are fair coin flips
		maxSetSize int  // bytes of all its files
	}{
		{"tabletop", 100, 4, 320, 240, 3, "jpeg", "scene_", true, true, 1_300_000},
		{"dice", 100, 4, 14, 14, 1, "png", "dice_", false, true, 50_000},
		{"tetris", 100, 5, 6, 6, 1, "pfm", "tetris_", false, true, 50_000},
		{"cards", 40, 17, 120, 168, 3, "png", "", false, false, 500_000},
		{"faces", 80, 4, 64, 64, 1, "png", "face_", true, true, 400_000},
	}
	total := 0
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := set(t, tt.name)
			if len(s.Images) != tt.n || len(s.FeatureNames) != tt.k {
				t.Fatalf("%d images, %d features; want %d, %d", len(s.Images), len(s.FeatureNames), tt.n, tt.k)
			}
			seen := map[string]bool{}
			codes := map[string]int{}
			ones := make([]int, tt.k)
			size := 0
			for _, im := range s.Images {
				if seen[im.Name] || !strings.HasPrefix(im.Name, tt.prefix) {
					t.Fatalf("name %q repeated or without prefix %q", im.Name, tt.prefix)
				}
				seen[im.Name] = true
				if len(im.Code) != tt.k || strings.Trim(im.Code, "01") != "" {
					t.Fatalf("%s: code %q is not %d bits", im.Name, im.Code, tt.k)
				}
				codes[im.Code]++
				for j, b := range im.Code {
					if b == '1' {
						ones[j]++
					}
				}
				d := decode(t, im)
				if d.w != tt.w || d.h != tt.h || d.ch != tt.ch || d.format != tt.format {
					t.Fatalf("%s: %s %d×%d×%d, want %s %d×%d×%d", im.Name, d.format, d.w, d.h, d.ch, tt.format, tt.w, tt.h, tt.ch)
				}
			}
			for _, f := range s.Files() {
				size += len(f.Data)
			}
			total += size
			if size > tt.maxSetSize {
				t.Errorf("%d bytes, want ≤ %d", size, tt.maxSetSize)
			}
			if tt.covering && len(codes) != 1<<tt.k {
				t.Errorf("%d distinct codes, want all %d", len(codes), 1<<tt.k)
			}
			if tt.bernoulli {
				for j, c := range ones {
					if f := float64(c) / float64(tt.n); f < 0.3 || f > 0.7 {
						t.Errorf("feature %s in %.2f of the images, want 0.4 to 0.5", s.FeatureNames[j], f)
					}
				}
			}
		})
	}
	if total > 2_200_000 {
		t.Errorf("all sets take %d bytes, want ≤ 2.2 MB", total)
	}
}

func TestTruthCSV(t *testing.T) {
	for _, s := range rendered() {
		files := s.Files()
		if len(files) != len(s.Images)+2 {
			t.Fatalf("%s: %d files for %d images", s.Name, len(files), len(s.Images))
		}
		truth, features := files[len(files)-2], files[len(files)-1]
		if truth.Name != "truth.csv" || features.Name != "features.txt" {
			t.Fatalf("%s: last files %s, %s", s.Name, truth.Name, features.Name)
		}
		rows, err := csv.NewReader(bytes.NewReader(truth.Data)).ReadAll()
		if err != nil {
			t.Fatalf("%s/truth.csv: %v", s.Name, err)
		}
		if !slices.Equal(rows[0], []string{"image", "code"}) || len(rows) != len(s.Images)+1 {
			t.Fatalf("%s/truth.csv: header %v, %d rows", s.Name, rows[0], len(rows))
		}
		for i, im := range s.Images {
			if !slices.Equal(rows[i+1], []string{im.Name, im.Code}) {
				t.Fatalf("%s/truth.csv row %d: %v, want %s,%s", s.Name, i+1, rows[i+1], im.Name, im.Code)
			}
		}
		got := strings.Split(strings.TrimSuffix(string(features.Data), "\n"), "\n")
		if !slices.Equal(got, s.FeatureNames) {
			t.Fatalf("%s/features.txt: %q, want %q", s.Name, got, s.FeatureNames)
		}
	}
}

func TestDeterministic(t *testing.T) {
	// Render the cheap sets again and compare with the first rendering; the assets package
	// checks every set, and the icon, against the committed files.
	for _, render := range []func() Set{Dice, Tetris, Faces} {
		again := render()
		first := set(t, again.Name)
		for i := range again.Images {
			if !bytes.Equal(first.Images[i].Data, again.Images[i].Data) || first.Images[i].Code != again.Images[i].Code {
				t.Fatalf("%s/%s differs between two renderings", again.Name, again.Images[i].Name)
			}
		}
	}
}

// TestAdditive checks that each set with additive features is what its truth says: fit a
// base and one image per feature to the pixels by least squares given the true codes,
// then every image's best code under that fit (over all 2^K codes) must be its true code.
// This is K-features with an oracle for Z; it fails if objects overlap, hide each other,
// or jitter and noise swamp them.
func TestAdditive(t *testing.T) {
	accuracy.Check(t)
	for _, name := range []string{"tabletop", "dice", "tetris", "faces"} {
		t.Run(name, func(t *testing.T) {
			s := set(t, name)
			var x [][]float64
			for _, im := range s.Images {
				x = append(x, decode(t, im).v)
			}
			k := len(s.FeatureNames)
			z := make([][]float64, len(x))
			for n, im := range s.Images {
				z[n] = codeRow(im.Code)
			}
			a := leastSquares(t, z, x)
			// ‖x − w'A‖² = x'x − 2w'(Ax) + w'(AA')w: only Ax depends on the image.
			g := make([][]float64, k+1)
			for i := range g {
				g[i] = make([]float64, k+1)
				for j := range g[i] {
					g[i][j] = dot(a[i], a[j])
				}
			}
			for n, im := range s.Images {
				ax := make([]float64, k+1)
				for i := range ax {
					ax[i] = dot(a[i], x[n])
				}
				best, bestErr := "", math.Inf(1)
				for m := 0; m < 1<<k; m++ {
					code := codeString(bits(m, k))
					w := codeRow(code)
					e := 0.0
					for i := range w {
						e += w[i] * (dot(g[i], w) - 2*ax[i])
					}
					if e < bestErr {
						best, bestErr = code, e
					}
				}
				if best != im.Code {
					t.Errorf("%s: best code %s, true %s", im.Name, best, im.Code)
				}
			}
		})
	}
}

// codeRow is the design row of a code: a 1 for the base, then the bits.
func codeRow(code string) []float64 {
	r := []float64{1}
	for _, b := range code {
		r = append(r, float64(b-'0'))
	}
	return r
}

func bits(m, k int) []bool {
	b := make([]bool, k)
	for j := range b {
		b[j] = m>>(k-1-j)&1 == 1
	}
	return b
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// leastSquares solves min ‖X − WA‖ for A by the normal equations (W'W)A = W'X with
// Gaussian elimination; W is small (K+1 columns) and well conditioned here.
func leastSquares(t *testing.T, w, x [][]float64) [][]float64 {
	t.Helper()
	k, p := len(w[0]), len(x[0])
	g := make([][]float64, k)
	a := make([][]float64, k)
	for i := range k {
		g[i] = make([]float64, k)
		a[i] = make([]float64, p)
		for n := range w {
			for j := range k {
				g[i][j] += w[n][i] * w[n][j]
			}
			if w[n][i] != 0 {
				for q, v := range x[n] {
					a[i][q] += w[n][i] * v
				}
			}
		}
	}
	for c := range k {
		piv := c
		for r := c + 1; r < k; r++ {
			if math.Abs(g[r][c]) > math.Abs(g[piv][c]) {
				piv = r
			}
		}
		g[c], g[piv] = g[piv], g[c]
		a[c], a[piv] = a[piv], a[c]
		if math.Abs(g[c][c]) < 1e-9 {
			t.Fatal("singular design: a feature is constant or duplicates another")
		}
		for r := range k {
			if r == c {
				continue
			}
			f := g[r][c] / g[c][c]
			for j := range k {
				g[r][j] -= f * g[c][j]
			}
			for q := range p {
				a[r][q] -= f * a[c][q]
			}
		}
	}
	for c := range k {
		for q := range p {
			a[c][q] /= g[c][c]
		}
	}
	return a
}
