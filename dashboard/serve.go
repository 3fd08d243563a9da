package dashboard

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Serve serves live on ln until ctx ends: open event streams end first,
// then the server shuts down (closed after 5s). The page is rendered
// fresh at each request.
func Serve(ctx context.Context, ln net.Listener, live *Live) error {
	srv := &http.Server{Handler: live.Handler(), ReadHeaderTimeout: 5 * time.Second}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		<-ctx.Done()
		// Open event streams end first, so Shutdown does not wait for them.
		live.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if srv.Shutdown(sctx) != nil {
			srv.Close()
		}
	}()
	err := srv.Serve(ln)
	stop()
	<-stopped
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
