package saved

// For the external tests: a result written out as text, and where two such texts part.
var (
	ResultText      = resultText
	FirstDifference = firstDifference
)
