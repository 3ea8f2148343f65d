// Package templates holds the HTML pages as templ components: the layout,
// the home page's scenario gallery, the play page with one panel per method
// and its controls, the two-dimensional gallery's page, the sweep card, and
// the methods' explanation cards (formulas in MathML, so no JavaScript is
// needed to show mathematics).
//
// The components take plain view types (views.go, and GalleryView beside
// its page), filled in by package handlers, so templates depends on nothing
// of ours. The *_templ.go files are generated from the .templ files by
// make generate and committed; make lint checks they are up to date.
package templates
