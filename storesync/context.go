package storesync

import "context"

// context is what bounds the remote's network calls: Ctx, or none.
func (rm Remote) context() context.Context {
	if rm.Ctx == nil {
		return context.Background()
	}
	return rm.Ctx
}
