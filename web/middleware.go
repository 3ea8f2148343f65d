package web

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/go-chi/chi/v5/middleware"
)

// requestLogger logs each request with slog once it is done. chi's wrapper
// keeps http.Hijacker, so websocket upgrades pass through; their status is
// 101 and their duration the stream's life.
func requestLogger(log *slog.Logger) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
			start := time.Now()
			defer func() {
				status := ww.Status()
				if status == 0 && r.Header.Get("Upgrade") != "" {
					status = http.StatusSwitchingProtocols
				}
				level := slog.LevelInfo
				switch {
				case status >= 500:
					level = slog.LevelError
				case status >= 400:
					level = slog.LevelWarn
				case strings.HasPrefix(r.URL.Path, "/static/") || r.URL.Path == "/healthz" || r.URL.Path == "/metrics":
					level = slog.LevelDebug
				}
				log.LogAttrs(r.Context(), level, "http",
					slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.Int("status", status),
					slog.Int("bytes", ww.BytesWritten()), slog.Duration("duration", time.Since(start)),
					slog.String("client", clientIP(r)), slog.String("request_id", middleware.GetReqID(r.Context())))
			}()
			next.ServeHTTP(ww, r)
		})
	}
}
