package hookd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// Text is a text content block.
func Text(text string) *hookdv1.ContentBlock {
	return &hookdv1.ContentBlock{Block: &hookdv1.ContentBlock_Text{Text: text}}
}

// PluginMessage is a user-role context message sourced to plugin. (The daemon sources every
// message a plugin contributes to the plugin's configured name whatever it says; a source is
// still required on the wire.)
func PluginMessage(plugin, text string) *hookdv1.Message {
	return &hookdv1.Message{
		Role:    hookdv1.Role_ROLE_USER,
		Content: []*hookdv1.ContentBlock{Text(text)},
		Source:  &hookdv1.MessageSource{Kind: &hookdv1.MessageSource_Plugin{Plugin: &hookdv1.PluginSource{Name: plugin}}},
	}
}

// MessageText is the text blocks of msg joined by newlines.
func MessageText(msg *hookdv1.Message) string {
	var parts []string
	for _, block := range msg.GetContent() {
		if text, ok := block.GetBlock().(*hookdv1.ContentBlock_Text); ok {
			parts = append(parts, text.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// DecodeJSON decodes JSON text into v losslessly: numbers decoded into `any` become json.Number,
// which keeps their digits (2^63-1 stays 9223372036854775807, where float64 would round it).
// Trailing data after the value is an error.
func DecodeJSON(text string, v any) error {
	decoder := json.NewDecoder(strings.NewReader(text))
	decoder.UseNumber()
	if err := decoder.Decode(v); err != nil {
		return err
	}
	if _, err := decoder.Token(); err != io.EOF {
		return fmt.Errorf("unexpected data after the JSON value")
	}
	return nil
}

// Arguments decodes a tool call's arguments (a JSON object) losslessly; see DecodeJSON.
func Arguments(call *hookdv1.ToolCall) (map[string]any, error) {
	var arguments map[string]any
	if err := DecodeJSON(call.GetArgumentsJson(), &arguments); err != nil {
		return nil, fmt.Errorf("arguments_json: %w", err)
	}
	if arguments == nil {
		return nil, fmt.Errorf("arguments_json: expected a JSON object")
	}
	return arguments, nil
}

// EncodeJSON is v as compact JSON text, with json.Number written digit for digit and '<', '>'
// and '&' left as they are.
func EncodeJSON(v any) (string, error) {
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}

// ResultText is the text the model sees of a tool result: the text blocks of its content
// (success or failure) joined by newlines.
func ResultText(result *hookdv1.ToolResult) string {
	content := result.GetSuccess().GetContent()
	if failure := result.GetFailure(); failure != nil {
		content = failure.GetContent()
	}
	return MessageText(&hookdv1.Message{Content: content})
}
