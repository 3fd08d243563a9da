package config

// MemoryTypes are the types of a memory (memory/confirmed/<type>/).
var MemoryTypes = []string{"fact", "concept", "lesson"}

// RelevantContext is `pipelines.relevant_context`: the playbook bullets
// and confirmed memories a transition's brief gets (package
// pipeline/hooks gives the defaults of what is left out).
type RelevantContext struct {
	Enabled *bool `yaml:"enabled"`
	// Bullets and Memories are the most of each (0: none of that kind).
	Bullets  *int `yaml:"bullets"`
	Memories *int `yaml:"memories"`
	// Categories limit the bullets, MemoryTypes the memories (none: all).
	Categories  []string `yaml:"categories"`
	MemoryTypes []string `yaml:"memory_types"`
}

// pipelineRelevantSchema is the section's keys, for config.yaml's check.
var pipelineRelevantSchema = section{
	"enabled": boolSetting, "bullets": atLeast(0), "memories": atLeast(0),
	"categories": listOf(textSetting), "memory_types": listOf(settingOneOf(MemoryTypes...)),
}
