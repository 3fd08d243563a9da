package similar

import "testing"

func TestStem(t *testing.T) {
	cases := map[string]string{
		"caresses": "caress", "ponies": "poni", "cats": "cat", "feed": "feed",
		"agreed": "agre", "plastered": "plaster", "motoring": "motor", "sing": "sing",
		"conflated": "conflat", "troubled": "troubl", "sized": "size", "hopping": "hop",
		"falling": "fall", "filing": "file", "happy": "happi", "relational": "relat",
		"conditional": "condit", "rational": "ration", "digitizer": "digit",
		"operator": "oper", "hopefulness": "hope", "formalize": "formal",
		"electrical": "electr", "revival": "reviv", "adoption": "adopt",
		"controll": "control", "roll": "roll", "generalization": "gener",
		"paginate": "pagin", "pagination": "pagin", "paginated": "pagin",
		"retries": "retri", "retry": "retri",
	}
	for in, want := range cases {
		if got := stem(in); got != want {
			t.Errorf("stem(%q) = %q, want %q", in, got, want)
		}
	}
}
