package saved

// For the external tests: a result written out as text, where two such texts part, and
// a JSON file with one field changed.
var (
	ResultText      = resultText
	FirstDifference = firstDifference
	EditJSON        = editJSON
)
