package handlers

import (
	"encoding/json"
	"strings"
	"unicode"

	"github.com/posterior-playground/playground/sim/scenario"
)

// galleryScenarios lists the scenarios set on a target density rather
// than a data set, as the gallery page reads them: each scenario as its
// JSON, its keys in snake case ("Slug" → "slug", "TargetControls" →
// "target_controls"), so the page takes whatever fields a scenario
// has (title, text, target, its controls, methods, claim) without this
// file naming them; a scenario without a "target" is the play page's.
func galleryScenarios() []map[string]any { return targetScenarios(scenario.All()) }

// targetScenarios is galleryScenarios of a list of scenarios (any slice
// of structs).
func targetScenarios(list any) []map[string]any {
	out := []map[string]any{}
	b, err := json.Marshal(list)
	if err != nil {
		return out
	}
	var all []map[string]any
	if json.Unmarshal(b, &all) != nil {
		return out
	}
	for _, s := range all {
		m := make(map[string]any, len(s))
		for k, v := range s {
			m[snakeCase(k)] = v
		}
		if t, _ := m["target"].(string); t != "" {
			out = append(out, m)
		}
	}
	return out
}

// snakeCase writes a Go field name in snake case: "TargetControls" →
// "target_controls"; a name already in snake case is unchanged.
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
