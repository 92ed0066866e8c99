package partition

import "fmt"

func ExampleRandIndex() {
	seg := []int32{0, 0, 1, 1}
	ref := []int32{5, 5, 5, 7}
	// Of the 6 pixel pairs, {0,1} is joined by both and {0,3}, {1,3} split by both.
	fmt.Printf("RI %.2f, VI %.3f nats\n", RandIndex(seg, ref), VariationOfInformation(seg, ref))
	// Output: RI 0.50, VI 0.824 nats
}

func ExampleNMI() {
	// Two clusterings of six images: the second splits the first's middle cluster.
	// By hand: H(a) = ln 3 = 1.0986, H(b) = (2/3)·ln 3 + (1/3)·ln 6 = 1.3297, and as b
	// refines a, I(a; b) = H(a): NMI = 1.0986 / 1.2142 = 0.9049. Pairs joined: both 2,
	// a 3, b 2, of C(6, 2) = 15; expected 3·2/15 = 0.4; ARI = (2 − 0.4)/(2.5 − 0.4) =
	// 0.7619. scikit-learn's normalized_mutual_info_score and adjusted_rand_score agree.
	a := []int32{0, 0, 1, 1, 2, 2}
	b := []int32{0, 0, 1, 3, 2, 2}
	fmt.Printf("NMI %.4f, ARI %.4f\n", NMI(a, b), AdjustedRandIndex(a, b))
	// Output: NMI 0.9049, ARI 0.7619
}
