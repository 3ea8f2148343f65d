// Package sim is the science of Posterior Playground: data sets, models,
// inference methods, their evaluation, and the run loop that steps a method in
// its own goroutine and publishes frames for viewers.
//
// Every method implements Method. A method owns its parameters and buffers;
// it draws randomness only from the *rand.Rand handed to Init, so a seed
// reproduces a run exactly. sim never imports net/http.
package sim
