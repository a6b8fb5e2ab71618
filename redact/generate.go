package redact

// GitleaksModule is the module version whose default rule file
// (config/gitleaks.toml) gitleaks.toml is, byte for byte: the detector
// set's maintained source. go generate copies it again; TestRulesArePinned
// checks the copy against the module when the module proxy is reachable.
const GitleaksModule = "github.com/zricethezav/gitleaks/v8@v8.30.1"

//go:generate go run ./internal/fetchrules github.com/zricethezav/gitleaks/v8@v8.30.1 gitleaks.toml
