package domain

import (
	"bytes"
	htmltemplate "html/template"
	"text/template"
	"time"
)

// Invitation is what an invitation email says: who invited, to which family, and the link.
type Invitation struct {
	To         string
	FamilyName string
	InvitedBy  string
	Link       string // absolute
	ExpiresAt  time.Time
}

// Email is a message ready to send, in plain text and HTML.
type Email struct {
	To, Subject, Text, HTML string
	// Unsubscribe is the one-click unsubscribe address (RFC 8058), sent as List-Unsubscribe
	// with List-Unsubscribe-Post; empty for none.
	Unsubscribe string
}

var invitationText = template.Must(template.New("text").Parse(`{{.InvitedBy}} invited you to join "{{.FamilyName}}" on Santa Wishlist.

Families see each other's wishlists in one place, so nobody buys the same present twice, and can draw Secret Santa names.

Join the family:
{{.Link}}

The link works until {{.Expires}}. If you did not expect this email, you can ignore it.
`))

// html/template escapes the names: a family called "<script>" stays text.
var invitationHTML = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5; color: #222">
<p><strong>{{.InvitedBy}}</strong> invited you to join <strong>{{.FamilyName}}</strong> on Santa Wishlist.</p>
<p>Families see each other's wishlists in one place, so nobody buys the same present twice, and can draw Secret Santa names.</p>
<p><a href="{{.Link}}" style="display: inline-block; padding: 10px 18px; background: #b3261e; color: #fff; border-radius: 6px; text-decoration: none">Join the family</a></p>
<p style="font-size: 14px; color: #555">Or open this link: {{.Link}}<br>It works until {{.Expires}}. If you did not expect this email, you can ignore it.</p>
</body></html>
`))

// InvitationEmail writes the invitation. unsubscribe is the one-click address that stops
// invitations to this address.
func InvitationEmail(inv Invitation, unsubscribe string) (Email, error) {
	view := struct {
		Invitation
		Expires string
	}{inv, inv.ExpiresAt.UTC().Format("2 January 2006")}
	var text, html bytes.Buffer
	if err := invitationText.Execute(&text, view); err != nil {
		return Email{}, err
	}
	if err := invitationHTML.Execute(&html, view); err != nil {
		return Email{}, err
	}
	return Email{
		To:      inv.To,
		Subject: inv.InvitedBy + " invited you to join " + inv.FamilyName + " on Santa Wishlist",
		Text:    text.String(),
		HTML:    html.String(),
		// The mail program shows its own unsubscribe button: no words of ours needed.
		Unsubscribe: unsubscribe,
	}, nil
}
