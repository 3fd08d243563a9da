package main

import "go.yaml.in/yaml/v3"

// yamlMap is a YAML mapping that keeps its keys in insertion order.
type yamlMap struct{ node yaml.Node }

func (m *yamlMap) add(key string, value any) {
	if m.node.Kind == 0 {
		m.node = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	}
	var v yaml.Node
	v.Encode(value)
	m.node.Content = append(m.node.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, &v)
}

func (m *yamlMap) MarshalYAML() (any, error) { return &m.node, nil }
