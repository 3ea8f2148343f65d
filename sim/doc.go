// Package sim is the contract between Posterior Playground's inference
// methods and everything that runs them: the Method interface and its
// optional extensions, control specs and their validation, data sets and
// the typed FieldError that carries a bad value from the command line to
// the browser.
//
// Every method implements Method. A method owns its parameters and buffers;
// it draws randomness only from the *rand.Rand handed to Init, so a seed
// reproduces a run exactly. The live run loop is in sim/engine, which
// methods never import; sim imports neither the engine nor net/http.
package sim
