// Package browsertest drives headless Chromium (Debian package chromium)
// through chromedp for the tests of toolsim's HTML pages: it loads a page,
// fails the test on any script error, evaluates expressions in it and
// saves screenshots. Without Chromium a test that asks for a browser is
// skipped with a message saying how to install it.
package browsertest
