package mcpcmd

func (s *Server) addPlaybookTools() {}
func (s *Server) addPipelineTools() {}
func (s *Server) addResources()     {}
func (s *Server) addPrompts()       {}
