package acp

import (
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
)

// Senders of a JSON-RPC message.
const (
	fromUnknown byte = 0
	fromClient  byte = 'c'
	fromAgent   byte = 'a'
)

// agentMethods are the methods an agent implements: the client sends them.
var agentMethods = set(
	acpsdk.AgentMethodAuthenticate, acpsdk.AgentMethodDocumentDidChange,
	acpsdk.AgentMethodDocumentDidClose, acpsdk.AgentMethodDocumentDidFocus,
	acpsdk.AgentMethodDocumentDidOpen, acpsdk.AgentMethodDocumentDidSave,
	acpsdk.AgentMethodInitialize, acpsdk.AgentMethodLogout, acpsdk.AgentMethodMcpMessage,
	acpsdk.AgentMethodNesAccept, acpsdk.AgentMethodNesClose, acpsdk.AgentMethodNesReject,
	acpsdk.AgentMethodNesStart, acpsdk.AgentMethodNesSuggest,
	acpsdk.AgentMethodProvidersDisable, acpsdk.AgentMethodProvidersList, acpsdk.AgentMethodProvidersSet,
	acpsdk.AgentMethodSessionCancel, acpsdk.AgentMethodSessionClose, acpsdk.AgentMethodSessionFork,
	acpsdk.AgentMethodSessionList, acpsdk.AgentMethodSessionLoad, acpsdk.AgentMethodSessionNew,
	acpsdk.AgentMethodSessionPrompt, acpsdk.AgentMethodSessionResume,
	acpsdk.AgentMethodSessionSetConfigOption, acpsdk.AgentMethodSessionSetMode,
	acpsdk.AgentMethodSessionSetModel,
)

// clientMethods are the methods a client implements: the agent sends them.
var clientMethods = set(
	acpsdk.ClientMethodElicitationComplete, acpsdk.ClientMethodElicitationCreate,
	acpsdk.ClientMethodFsReadTextFile, acpsdk.ClientMethodFsWriteTextFile,
	acpsdk.ClientMethodMcpConnect, acpsdk.ClientMethodMcpDisconnect, acpsdk.ClientMethodMcpMessage,
	acpsdk.ClientMethodSessionRequestPermission, acpsdk.ClientMethodSessionUpdate,
	acpsdk.ClientMethodTerminalCreate, acpsdk.ClientMethodTerminalKill,
	acpsdk.ClientMethodTerminalOutput, acpsdk.ClientMethodTerminalRelease,
	acpsdk.ClientMethodTerminalWaitForExit,
)

// cancelRequest is the protocol-level request cancellation; either side
// may send it.
const cancelRequest = "$/cancel_request"

// set builds a set of names.
func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// senderOf names who sends a method: the client, the agent, or unknown
// for methods both sides have (mcp/message, $/cancel_request) and
// extension methods ("_…").
func senderOf(method string) byte {
	a, c := agentMethods[method], clientMethods[method]
	switch {
	case a && !c:
		return fromClient
	case c && !a:
		return fromAgent
	}
	return fromUnknown
}

// knownMethod reports whether a method is part of ACP (or an extension
// method, which ACP reserves the "_" prefix for).
func knownMethod(method string) bool {
	return agentMethods[method] || clientMethods[method] || method == cancelRequest || strings.HasPrefix(method, "_")
}
