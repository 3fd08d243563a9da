package merge

import "math"

// The line diff is git's default one (xdiff's Myers), so that a merge
// pairs lines as git merge-file does. Its constants are git's.
const (
	snakeCount  = 20   // a snake this long is a good place to split
	heurMinCost = 256  // cost from which a good snake ends the search
	maxCostMin  = 256  // least cost after which the furthest point is taken
	kHeur       = 4    // how far past the cost a good snake must reach
	maxEqLimit  = 1024 // most copies of a line before it counts as common
	simScan     = 100  // window of the common-lines scan
	kpDisRun    = 4    // share of common lines in a run that is set aside
)

// match returns, for each line of a, the index of the line of b it is paired
// with, or -1. It is git's diff, in time about proportional to the lines
// times the differences and in memory linear in the lines:
//
//   - common leading and trailing lines are paired first;
//   - lines that occur nowhere in the other text are set aside (they can
//     never be paired), and so are very common lines amid them, which
//     leaves little to compare for typical edits;
//   - the rest is compared with Myers' O(ND) algorithm in its linear-space
//     form (the middle snake, divide and conquer). Past a cost of 256
//     differences in one part, it splits that part at a long run of common
//     lines or, past max(256, √lines), at the furthest point reached, so
//     that two unrelated large texts take seconds, not hours; below that
//     the pairing is a longest one;
//   - each run of changed lines is then slid down as far as equal lines
//     allow, or back up to line up with a change in the other text, so
//     that an ambiguous change is placed where git places it.
func match(a, b []string) []int {
	return pairLines(a, b, false)
}

// pairLines is match; minimal (git's --minimal) turns the heuristics off:
// the pairing is then a longest one, whatever the time.
func pairLines(a, b []string, minimal bool) []int {
	ids := make(map[string]int32, len(a)+len(b))
	ia, ib := intern(a, ids), intern(b, ids)
	ca, cb := diffIDs(ia, ib, len(ids), minimal)
	compactOne(&changes{ia, ca}, &changes{ib, cb})
	compactOne(&changes{ib, cb}, &changes{ia, ca})
	m := make([]int, len(a))
	for i, j := 0, 0; i < len(a); i++ {
		m[i] = -1
		if !ca[i+1] {
			for cb[j+1] {
				j++
			}
			m[i] = j
			j++
		}
	}
	return m
}

// intern numbers the distinct lines, equal lines getting equal numbers.
func intern(lines []string, ids map[string]int32) []int32 {
	out := make([]int32, len(lines))
	for i, l := range lines {
		id, ok := ids[l]
		if !ok {
			id = int32(len(ids))
			ids[l] = id
		}
		out[i] = id
	}
	return out
}

// diffIDs compares two texts of line numbers below n and returns their
// changed lines (line i at [i+1]; the first and last entries stay false).
func diffIDs(a, b []int32, n int, minimal bool) (ca, cb []bool) {
	ca, cb = make([]bool, len(a)+2), make([]bool, len(b)+2)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	// How often each line occurs in each whole text.
	na, nb := make([]int32, n), make([]int32, n)
	for _, id := range a {
		na[id]++
	}
	for _, id := range b {
		nb[id]++
	}
	d := &xdiff{}
	d.ha1, d.index1 = kept(a, pre, len(a)-suf, nb, ca, minimal)
	d.ha2, d.index2 = kept(b, pre, len(b)-suf, na, cb, minimal)
	d.chg1, d.chg2 = ca, cb
	ndiags := len(d.ha1) + len(d.ha2) + 3
	d.kvdf, d.kvdb = make([]int, ndiags), make([]int, ndiags)
	d.off = len(d.ha2) + 1
	d.maxCost = max(bogoSqrt(ndiags), maxCostMin)
	d.compare(0, len(d.ha1), 0, len(d.ha2), minimal)
	return ca, cb
}

// kept returns the lines x[start:end] that take part in the comparison,
// with their indexes, and marks the others changed in chg: those the other
// text (whose counts are in other) lacks, and those it has very many of
// amid lines it lacks unless minimal (git's xdl_cleanup_records).
func kept(x []int32, start, end int, other []int32, chg []bool, minimal bool) ([]int32, []int) {
	limit := int32(min(bogoSqrt(len(x)), maxEqLimit))
	dis := make([]byte, end-start) // 0: not in other, 1: in other, 2: very common there
	for i := start; i < end; i++ {
		switch c := other[x[i]]; {
		case c == 0:
		case c >= limit && !minimal:
			dis[i-start] = 2
		default:
			dis[i-start] = 1
		}
	}
	ha, index := make([]int32, 0, end-start), make([]int, 0, end-start)
	for i := start; i < end; i++ {
		if k := dis[i-start]; k == 1 || k == 2 && !amidUnmatched(dis, i-start) {
			ha = append(ha, x[i])
			index = append(index, i)
		} else {
			chg[i+1] = true
		}
	}
	return ha, index
}

// amidUnmatched reports whether the very common line i sits in a run of
// lines that are mostly missing from the other text (git's
// xdl_clean_mmatch).
func amidUnmatched(dis []byte, i int) bool {
	s, e := 0, len(dis)-1
	if i-s > simScan {
		s = i - simScan
	}
	if e-i > simScan {
		e = i + simScan
	}
	rdis0, rpdis0 := 0, 1
	for r := 1; i-r >= s; r++ {
		if dis[i-r] == 0 {
			rdis0++
		} else if dis[i-r] == 2 {
			rpdis0++
		} else {
			break
		}
	}
	if rdis0 == 0 {
		return false
	}
	rdis1, rpdis1 := 0, 1
	for r := 1; i+r <= e; r++ {
		if dis[i+r] == 0 {
			rdis1++
		} else if dis[i+r] == 2 {
			rpdis1++
		} else {
			break
		}
	}
	if rdis1 == 0 {
		return false
	}
	rdis1 += rdis0
	rpdis1 += rpdis0
	return rpdis1*kpDisRun < rpdis1+rdis1
}

// bogoSqrt is git's rough square root: a power of two.
func bogoSqrt(n int) int {
	i := 1
	for ; n > 0; n >>= 2 {
		i <<= 1
	}
	return i
}

// xdiff compares the kept lines ha1 and ha2 of two texts with Myers'
// middle-snake algorithm (git's xdl_recs_cmp and xdl_split), marking the
// changed ones in chg1 and chg2 through index1 and index2.
type xdiff struct {
	ha1, ha2       []int32
	index1, index2 []int
	chg1, chg2     []bool
	kvdf, kvdb     []int // furthest reach per diagonal (at off+diagonal), forward and backward
	off            int
	maxCost        int
}

// compare compares ha1[off1:lim1] with ha2[off2:lim2]; needMin asks for a
// shortest edit script whatever the cost.
func (x *xdiff) compare(off1, lim1, off2, lim2 int, needMin bool) {
	for off1 < lim1 && off2 < lim2 && x.ha1[off1] == x.ha2[off2] {
		off1, off2 = off1+1, off2+1
	}
	for off1 < lim1 && off2 < lim2 && x.ha1[lim1-1] == x.ha2[lim2-1] {
		lim1, lim2 = lim1-1, lim2-1
	}
	switch {
	case off1 == lim1:
		for ; off2 < lim2; off2++ {
			x.chg2[x.index2[off2]+1] = true
		}
	case off2 == lim2:
		for ; off1 < lim1; off1++ {
			x.chg1[x.index1[off1]+1] = true
		}
	default:
		i1, i2, minLo, minHi := x.split(off1, lim1, off2, lim2, needMin)
		x.compare(off1, i1, off2, i2, minLo)
		x.compare(i1, lim1, i2, lim2, minHi)
	}
}

// split returns the point where a shortest path from the start and one from
// the end meet, or, past the cost heuristics, a good point reached by
// either; minLo and minHi say whether the parts before and after it must
// be compared exactly.
func (x *xdiff) split(off1, lim1, off2, lim2 int, needMin bool) (i1, i2 int, minLo, minHi bool) {
	ha1, ha2, o := x.ha1, x.ha2, x.off
	kf, kb := x.kvdf, x.kvdb
	dmin, dmax := off1-lim2, lim1-off2
	fmid, bmid := off1-off2, lim1-lim2
	odd := (fmid-bmid)&1 != 0
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	kf[o+fmid] = off1
	kb[o+bmid] = lim1
	for ec := 1; ; ec++ {
		gotSnake := false
		// Widen the diagonals by one, inward where the box ends.
		if fmin > dmin {
			fmin--
			kf[o+fmin-1] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			kf[o+fmax+1] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			if kf[o+d-1] >= kf[o+d+1] {
				i1 = kf[o+d-1] + 1
			} else {
				i1 = kf[o+d+1]
			}
			prev := i1
			i2 = i1 - d
			for i1 < lim1 && i2 < lim2 && ha1[i1] == ha2[i2] {
				i1, i2 = i1+1, i2+1
			}
			if i1-prev > snakeCount {
				gotSnake = true
			}
			kf[o+d] = i1
			if odd && bmin <= d && d <= bmax && kb[o+d] <= i1 {
				return i1, i2, true, true
			}
		}
		if bmin > dmin {
			bmin--
			kb[o+bmin-1] = math.MaxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			kb[o+bmax+1] = math.MaxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			if kb[o+d-1] < kb[o+d+1] {
				i1 = kb[o+d-1]
			} else {
				i1 = kb[o+d+1] - 1
			}
			prev := i1
			i2 = i1 - d
			for i1 > off1 && i2 > off2 && ha1[i1-1] == ha2[i2-1] {
				i1, i2 = i1-1, i2-1
			}
			if prev-i1 > snakeCount {
				gotSnake = true
			}
			kb[o+d] = i1
			if !odd && fmin <= d && d <= fmax && i1 <= kf[o+d] {
				return i1, i2, true, true
			}
		}
		if needMin {
			continue
		}
		// Past heurMinCost, a diagonal that got far (less its distance
		// from the middle one) ending in a long snake is a good split.
		if gotSnake && ec > heurMinCost {
			best := 0
			for d := fmax; d >= fmin; d -= 2 {
				dd := max(d-fmid, fmid-d)
				j1 := kf[o+d]
				j2 := j1 - d
				v := (j1 - off1) + (j2 - off2) - dd
				if v > kHeur*ec && v > best && off1+snakeCount <= j1 && j1 < lim1 && off2+snakeCount <= j2 && j2 < lim2 {
					for k := 1; ha1[j1-k] == ha2[j2-k]; k++ {
						if k == snakeCount {
							best, i1, i2 = v, j1, j2
							break
						}
					}
				}
			}
			if best > 0 {
				return i1, i2, true, false
			}
			for d := bmax; d >= bmin; d -= 2 {
				dd := max(d-bmid, bmid-d)
				j1 := kb[o+d]
				j2 := j1 - d
				v := (lim1 - j1) + (lim2 - j2) - dd
				if v > kHeur*ec && v > best && off1 < j1 && j1 <= lim1-snakeCount && off2 < j2 && j2 <= lim2-snakeCount {
					for k := 0; ha1[j1+k] == ha2[j2+k]; k++ {
						if k == snakeCount-1 {
							best, i1, i2 = v, j1, j2
							break
						}
					}
				}
			}
			if best > 0 {
				return i1, i2, false, true
			}
		}
		// Past maxCost, the point furthest from either end.
		if ec >= x.maxCost {
			fbest, fbest1 := -1, -1
			for d := fmax; d >= fmin; d -= 2 {
				j1 := min(kf[o+d], lim1)
				j2 := j1 - d
				if lim2 < j2 {
					j1, j2 = lim2+d, lim2
				}
				if fbest < j1+j2 {
					fbest, fbest1 = j1+j2, j1
				}
			}
			bbest, bbest1 := math.MaxInt, math.MaxInt
			for d := bmax; d >= bmin; d -= 2 {
				j1 := max(off1, kb[o+d])
				j2 := j1 - d
				if j2 < off2 {
					j1, j2 = off2+d, off2
				}
				if j1+j2 < bbest {
					bbest, bbest1 = j1+j2, j1
				}
			}
			if (lim1+lim2)-bbest < fbest-(off1+off2) {
				return fbest1, fbest - fbest1, true, false
			}
			return bbest1, bbest - bbest1, false, true
		}
	}
}

// changes is one text with its changed lines (chg[i+1] for line i; chg[0]
// and chg[len+1] stay false).
type changes struct {
	recs []int32
	chg  []bool
}

// group is a run of changed lines [start, end), possibly empty.
type group struct{ start, end int }

func (c *changes) first() group {
	g := group{}
	for c.chg[g.end+1] {
		g.end++
	}
	return g
}

func (c *changes) next(g *group) bool {
	if g.end == len(c.recs) {
		return false
	}
	g.start = g.end + 1
	for g.end = g.start; c.chg[g.end+1]; g.end++ {
	}
	return true
}

func (c *changes) previous(g *group) bool {
	if g.start == 0 {
		return false
	}
	g.end = g.start - 1
	for g.start = g.end; c.chg[g.start]; g.start-- {
	}
	return true
}

func (c *changes) slideDown(g *group) bool {
	if g.end >= len(c.recs) || c.recs[g.start] != c.recs[g.end] {
		return false
	}
	c.chg[g.start+1], c.chg[g.end+1] = false, true
	g.start, g.end = g.start+1, g.end+1
	for c.chg[g.end+1] {
		g.end++
	}
	return true
}

func (c *changes) slideUp(g *group) bool {
	if g.start == 0 || c.recs[g.start-1] != c.recs[g.end-1] {
		return false
	}
	c.chg[g.start], c.chg[g.end] = true, false
	g.start, g.end = g.start-1, g.end-1
	for c.chg[g.start] {
		g.start--
	}
	return true
}

// compactOne is git's xdl_change_compact without its indent heuristic: the
// runs of c move, o's runs are followed in step.
func compactOne(c, o *changes) {
	g, og := c.first(), o.first()
	for {
		if g.end != g.start {
			var earliestEnd int
			endMatchingOther := -1
			for {
				size := g.end - g.start
				endMatchingOther = -1
				for c.slideUp(&g) {
					o.previous(&og)
				}
				earliestEnd = g.end
				if og.end > og.start {
					endMatchingOther = g.end
				}
				for c.slideDown(&g) {
					o.next(&og)
					if og.end > og.start {
						endMatchingOther = g.end
					}
				}
				if size == g.end-g.start {
					break
				}
			}
			if g.end != earliestEnd && endMatchingOther != -1 {
				for og.end == og.start {
					c.slideUp(&g)
					o.previous(&og)
				}
			}
		}
		if !c.next(&g) {
			return
		}
		o.next(&og)
	}
}
