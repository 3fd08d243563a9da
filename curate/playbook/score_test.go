package playbook

import "testing"

// Outside every store the scorer is the default engine's; a store's is
// the engine its config.yaml names (the lexical one by default): the
// same scores here.
func TestScorer(t *testing.T) {
	for name, s := range map[string]*Scorer{"default": must(NewScorer(nil)), "store": must(NewScorer(newStore(t)))} {
		same, err := s.Score("page through every result", "page through every result")
		if err != nil || same < 0.99 {
			t.Errorf("%s: the same text scores %v, %v", name, same, err)
		}
		other, err := s.Score("page through every result", "the staging database resets nightly")
		if err != nil || other >= same {
			t.Errorf("%s: other texts score %v (the same %v), %v", name, other, same, err)
		}
		if err := s.Close(); err != nil {
			t.Errorf("%s: close: %v", name, err)
		}
	}
}

func must(s *Scorer, err error) *Scorer {
	if err != nil {
		panic(err)
	}
	return s
}
