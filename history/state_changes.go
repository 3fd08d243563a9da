package history

import (
	"fmt"
	"reflect"
)

// stateChanges are the changes of a pipeline state a reviewer reads: the
// overall status, the current phase, each phase's status and blockers, the
// drift count and the newest brief.
func stateChanges(o, n *record) map[string]KeyChange {
	out := map[string]KeyChange{}
	set := func(k string, a, b any) {
		if !reflect.DeepEqual(a, b) {
			out[k] = KeyChange{Old: a, New: b}
		}
	}
	set("overall_status", o.keys["overall_status"], n.keys["overall_status"])
	set("current_phase", phaseName(o.keys["current_phase"]), phaseName(n.keys["current_phase"]))
	op, np := phases(o), phases(n)
	for name, p := range np {
		q := op[name]
		set("phase "+name, q["status"], p["status"])
		set("phase "+name+" blockers", count(q["blockers"]), count(p["blockers"]))
	}
	for name, q := range op {
		if _, ok := np[name]; !ok {
			set("phase "+name, q["status"], nil)
		}
	}
	set("drift", count(o.keys["drift"]), count(n.keys["drift"]))
	set("last_brief", briefPath(o.keys["last_brief"]), briefPath(n.keys["last_brief"]))
	if len(out) == 0 {
		return nil
	}
	return out
}

// phases are a state's phases by "number-name".
func phases(r *record) map[string]map[string]any {
	out := map[string]map[string]any{}
	list, _ := r.keys["phases"].([]any)
	for _, x := range list {
		p, ok := x.(map[string]any)
		if !ok {
			continue
		}
		out[fmt.Sprint(phaseName(p))] = p
	}
	return out
}

func phaseName(v any) any {
	p, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	n, _ := number(p["phase_number"])
	return fmt.Sprintf("%d-%v", int(n), p["phase_name"])
}

func count(v any) int {
	l, _ := v.([]any)
	return len(l)
}

func briefPath(v any) any {
	if b, ok := v.(map[string]any); ok {
		return b["path"]
	}
	return nil
}
