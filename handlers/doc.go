// Package handlers holds the HTTP and websocket handlers: the pages, the JSON
// API and the run stream. It builds on sim for runs and on templates for
// HTML, and knows nothing about server assembly.
package handlers
