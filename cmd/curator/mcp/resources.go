package mcpcmd

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/curator-dev/curator/internal/safepath"
	"github.com/curator-dev/curator/mdstore"
	"github.com/curator-dev/curator/pipeline/pipelinehome"
)

// The records an agent can read as resources. Every read opens the file
// again: agents and people edit the store between two requests, and a
// resource is what the file holds now.
const (
	memoryURI   = "curator://memory/"
	bulletURI   = "curator://bullet/"
	pipelineURI = "curator://pipeline/"
	stateSuffix = "/state"
	statsURI    = "curator://playbook/stats"
)

func (s *Server) addResources() {
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{Name: "memory", Title: "Memory entry", URITemplate: memoryURI + "{id}",
		MIMEType: "text/markdown", Description: "A memory entry's file (frontmatter and body), wherever it is now: inbox, confirmed or trash."},
		s.readMemory)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{Name: "bullet", Title: "Playbook bullet", URITemplate: bulletURI + "{id}",
		MIMEType: "text/markdown", Description: "A playbook bullet's file (frontmatter and content), active or archived."},
		s.readBullet)
	s.mcp.AddResourceTemplate(&mcp.ResourceTemplate{Name: "pipeline-state", Title: "Pipeline state", URITemplate: pipelineURI + "{project}" + stateSuffix,
		MIMEType: "application/json", Description: "A project's pipeline state file (pipeline-state-<project>.json), from CURATOR_SDD_HOME or the store's pipelines/ folder."},
		s.readPipelineState)
	s.mcp.AddResource(&mcp.Resource{Name: "playbook-stats", Title: "Playbook statistics", URI: statsURI,
		MIMEType: "application/json", Description: "The playbook_stats report: bullets by category, counters, pending reflections."},
		s.readStats)
}

func (s *Server) readMemory(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	id, ok := segment(req.Params.URI, memoryURI, "")
	if !ok {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	st, err := mdstore.Open(s.g.Store)
	if err != nil {
		return nil, err
	}
	data, err := st.ReadMemoryFile(id)
	return contents(req.Params.URI, data, err)
}

func (s *Server) readBullet(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	id, ok := segment(req.Params.URI, bulletURI, "")
	if !ok {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	st, err := mdstore.Open(s.g.Store)
	if err != nil {
		return nil, err
	}
	data, err := st.ReadBulletFile(id)
	return contents(req.Params.URI, data, err)
}

func (s *Server) readPipelineState(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	project, ok := segment(req.Params.URI, pipelineURI, stateSuffix)
	if !ok {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	data, err := pipelinehome.ReadStateFile(s.homeOptions("pipeline-state", "", false), project)
	return contents(req.Params.URI, data, err)
}

func (s *Server) readStats(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	res, err := s.playbookStats(ctx)
	if err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, Text: string(data)}}}, nil
}

// segment is the one path segment of uri between prefix and suffix,
// unescaped; false when uri has another shape or the segment is not a
// plain name.
func segment(uri, prefix, suffix string) (string, bool) {
	rest, ok := strings.CutPrefix(uri, prefix)
	if !ok {
		return "", false
	}
	if rest, ok = strings.CutSuffix(rest, suffix); !ok {
		return "", false
	}
	v, err := url.PathUnescape(rest)
	if err != nil || safepath.CheckID(v) != nil {
		return "", false
	}
	return v, true
}

// contents is a file read for a resource: one that is not there is a
// resource not found.
func contents(uri string, data []byte, err error) (*mcp.ReadResourceResult, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, Text: string(data)}}}, nil
}
