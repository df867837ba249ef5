package domain

import (
	"bytes"
	"fmt"
	htmltemplate "html/template"
	"strings"
	"text/template"
	"time"
)

// Invitation is what an invitation email says: who invited, to which family, and the link,
// in the inviter's language.
type Invitation struct {
	To         string
	FamilyName string
	InvitedBy  string
	Link       string // absolute
	ExpiresAt  time.Time
	// Language is the inviter's app language ("de", "fr-CA"); the email is written in the
	// nearest of Languages, English when none is near.
	Language string
}

// Email is a message ready to send, in plain text and HTML.
type Email struct {
	To, Subject, Text, HTML string
	// Unsubscribe is the one-click unsubscribe address (RFC 8058), sent as List-Unsubscribe
	// with List-Unsubscribe-Post; empty for none.
	Unsubscribe string
}

// invitationTexts are the invitation's words in every language of the app; {inviter} and
// {family} are the names, {date} the link's last day.
var invitationTexts = map[string]map[string]string{
	"en": {
		"subject": "{inviter} invited you to join {family} on Santa Wishlist",
		"intro":   "{inviter} invited you to join \"{family}\" on Santa Wishlist.",
		"why":     "Families see each other's wishlists in one place, so nobody buys the same present twice, and can draw Secret Santa names.",
		"join":    "Join the family",
		"orOpen":  "Or open this link:",
		"expires": "The link works until {date}. If you did not expect this email, you can ignore it.",
	},
	"de": {
		"subject": "{inviter} lädt dich in die Familie {family} bei Santa Wishlist ein",
		"intro":   "{inviter} hat dich eingeladen, der Familie „{family}“ bei Santa Wishlist beizutreten.",
		"why":     "Familien sehen ihre Wunschlisten an einem Ort, damit niemand dasselbe Geschenk zweimal kauft, und können Wichtelnamen ziehen.",
		"join":    "Der Familie beitreten",
		"orOpen":  "Oder öffne diesen Link:",
		"expires": "Der Link gilt bis zum {date}. Wenn du diese E-Mail nicht erwartet hast, kannst du sie ignorieren.",
	},
	"fr": {
		"subject": "{inviter} vous invite à rejoindre {family} sur Santa Wishlist",
		"intro":   "{inviter} vous invite à rejoindre la famille « {family} » sur Santa Wishlist.",
		"why":     "Les familles voient les listes de souhaits de chacun au même endroit : personne n'achète deux fois le même cadeau, et elles peuvent tirer au sort les noms du Père Noël secret.",
		"join":    "Rejoindre la famille",
		"orOpen":  "Ou ouvrez ce lien :",
		"expires": "Le lien est valable jusqu'au {date}. Si vous n'attendiez pas cet e-mail, vous pouvez l'ignorer.",
	},
	"es": {
		"subject": "{inviter} te invita a unirte a {family} en Santa Wishlist",
		"intro":   "{inviter} te ha invitado a unirte a la familia «{family}» en Santa Wishlist.",
		"why":     "Las familias ven las listas de deseos de todos en un mismo lugar, para que nadie compre el mismo regalo dos veces, y pueden sortear el amigo invisible.",
		"join":    "Unirse a la familia",
		"orOpen":  "O abre este enlace:",
		"expires": "El enlace funciona hasta el {date}. Si no esperabas este correo, puedes ignorarlo.",
	},
}

// months are the month names of each language, January first.
var months = map[string][12]string{
	"en": {"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
	"de": {"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
	"fr": {"janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"},
	"es": {"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
}

// longDate writes a day as each language writes it in a sentence: 30 November 2026,
// 30. November 2026, 30 novembre 2026, 30 de noviembre de 2026.
func longDate(lang string, t time.Time) string {
	t = t.UTC()
	month := months[lang][t.Month()-1]
	switch lang {
	case "de":
		return fmt.Sprintf("%d. %s %d", t.Day(), month, t.Year())
	case "es":
		return fmt.Sprintf("%d de %s de %d", t.Day(), month, t.Year())
	}
	return fmt.Sprintf("%d %s %d", t.Day(), month, t.Year())
}

var invitationText = template.Must(template.New("text").Parse(`{{.Intro}}

{{.Why}}

{{.Join}}:
{{.Link}}

{{.Expires}}
`))

// html/template escapes everything but Intro, which is built from escaped parts: a family
// called "<script>" stays text.
var invitationHTML = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html lang="{{.Lang}}"><body style="font-family: sans-serif; line-height: 1.5; color: #222">
<p>{{.IntroHTML}}</p>
<p>{{.Why}}</p>
<p><a href="{{.Link}}" style="display: inline-block; padding: 10px 18px; background: #b3261e; color: #fff; border-radius: 6px; text-decoration: none">{{.Join}}</a></p>
<p style="font-size: 14px; color: #555">{{.OrOpen}} {{.Link}}<br>{{.Expires}}</p>
</body></html>
`))

// InvitationEmail writes the invitation in the inviter's language. unsubscribe is the
// one-click address that stops invitations to this address.
func InvitationEmail(inv Invitation, unsubscribe string) (Email, error) {
	lang := Language(inv.Language)
	words := invitationTexts[lang]
	names := strings.NewReplacer("{inviter}", inv.InvitedBy, "{family}", inv.FamilyName)
	strong := func(s string) string { return "<strong>" + htmltemplate.HTMLEscapeString(s) + "</strong>" }
	view := struct {
		Lang, Intro, Why, Join, OrOpen, Expires, Link string
		IntroHTML                                     htmltemplate.HTML
	}{
		Lang: lang, Intro: names.Replace(words["intro"]), Why: words["why"], Join: words["join"], OrOpen: words["orOpen"],
		Expires: strings.ReplaceAll(words["expires"], "{date}", longDate(lang, inv.ExpiresAt)), Link: inv.Link,
		// The sentence is escaped first, then the names go in escaped and in bold.
		IntroHTML: htmltemplate.HTML(strings.NewReplacer("{inviter}", strong(inv.InvitedBy), "{family}", strong(inv.FamilyName)).
			Replace(htmltemplate.HTMLEscapeString(words["intro"]))),
	}
	var text, html bytes.Buffer
	if err := invitationText.Execute(&text, view); err != nil {
		return Email{}, err
	}
	if err := invitationHTML.Execute(&html, view); err != nil {
		return Email{}, err
	}
	return Email{
		To:      inv.To,
		Subject: names.Replace(words["subject"]),
		Text:    text.String(),
		HTML:    html.String(),
		// The mail program shows its own unsubscribe button: no words of ours needed.
		Unsubscribe: unsubscribe,
	}, nil
}
