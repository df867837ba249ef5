package domain

import (
	"bytes"
	"encoding/json"
	htmltemplate "html/template"
	"net/url"
	"strconv"
	"strings"
	"text/template"
)

// texts are the emails' words in every language of the app (the web app's own catalogs are
// in web/src; these are the server's). {name} placeholders are filled per notice.
var texts = map[string]map[string]string{
	"en": {
		"subject." + KindThankYou:                       "{recipient} thanked you for {item}",
		"line." + KindThankYou:                          "{recipient} thanked you for {item}: “{message}”",
		"subject." + KindGroupGiftComplete:              "A group gift is complete",
		"line." + KindGroupGiftComplete:                 "{item} for {owner}: the pledges reached the target.",
		"subject." + KindSecretSantaMessage + ".santa":  "Your Secret Santa sent you a message",
		"subject." + KindSecretSantaMessage + ".giftee": "Your giftee sent you a message",
		"line." + KindSecretSantaMessage + ".santa":     "Your Secret Santa in {family} sent you a message.",
		"line." + KindSecretSantaMessage + ".giftee":    "Your giftee in {family} sent you a message.",
		"subject." + KindSecretSantaDrawn:               "Your Secret Santa match is ready",
		"line." + KindSecretSantaDrawn:                  "The Secret Santa names of {family} are drawn: see whom you give a present to.",
		"line." + KindListChanged:                       "A wishlist you follow changed.",
		"line." + KindListChanged + ".n":                "A wishlist you follow changed ({count} times).",
		"line." + KindClaimRemoved:                      "{item} was removed from {owner}'s list: you had claimed it.",
		"line." + KindClaimRemoved + ".pledge":          "{item} was removed from {owner}'s list: you were giving it together with others.",
		"line." + KindMemberJoined:                      "{name} joined {family}.",
		"someone":                                       "someone",
		"subject.digest":                                "News from your family on Santa Wishlist",
		"intro.digest":                                  "Here is what happened since our last email:",
		"open":                                          "Open",
		"footer":                                        "You get these emails because they are on in your notification settings.",
		"settings":                                      "Notification settings",
		"unsubscribe":                                   "Stop these emails",
	},
	"de": {
		"subject." + KindThankYou:                       "{recipient} bedankt sich für {item}",
		"line." + KindThankYou:                          "{recipient} bedankt sich für {item}: „{message}“",
		"subject." + KindGroupGiftComplete:              "Ein gemeinsames Geschenk ist komplett",
		"line." + KindGroupGiftComplete:                 "{item} für {owner}: Die Zusagen haben das Ziel erreicht.",
		"subject." + KindSecretSantaMessage + ".santa":  "Dein Wichtel hat dir geschrieben",
		"subject." + KindSecretSantaMessage + ".giftee": "Dein Wichtelkind hat dir geschrieben",
		"line." + KindSecretSantaMessage + ".santa":     "Dein Wichtel in {family} hat dir geschrieben.",
		"line." + KindSecretSantaMessage + ".giftee":    "Dein Wichtelkind in {family} hat dir geschrieben.",
		"subject." + KindSecretSantaDrawn:               "Dein Wichtelpartner steht fest",
		"line." + KindSecretSantaDrawn:                  "Die Wichtelnamen von {family} sind gezogen: sieh nach, wen du beschenkst.",
		"line." + KindListChanged:                       "Eine Wunschliste, der du folgst, hat sich geändert.",
		"line." + KindListChanged + ".n":                "Eine Wunschliste, der du folgst, hat sich geändert ({count}-mal).",
		"line." + KindClaimRemoved:                      "{item} wurde von der Liste von {owner} entfernt: du hattest es reserviert.",
		"line." + KindClaimRemoved + ".pledge":          "{item} wurde von der Liste von {owner} entfernt: du wolltest es gemeinsam mit anderen schenken.",
		"line." + KindMemberJoined:                      "{name} ist {family} beigetreten.",
		"someone":                                       "jemandem",
		"subject.digest":                                "Neues aus deiner Familie bei Santa Wishlist",
		"intro.digest":                                  "Das ist seit unserer letzten E-Mail passiert:",
		"open":                                          "Öffnen",
		"footer":                                        "Du bekommst diese E-Mails, weil sie in deinen Benachrichtigungseinstellungen eingeschaltet sind.",
		"settings":                                      "Benachrichtigungseinstellungen",
		"unsubscribe":                                   "Diese E-Mails abbestellen",
	},
	"fr": {
		"subject." + KindThankYou:                       "{recipient} vous remercie pour {item}",
		"line." + KindThankYou:                          "{recipient} vous remercie pour {item} : « {message} »",
		"subject." + KindGroupGiftComplete:              "Un cadeau commun est complet",
		"line." + KindGroupGiftComplete:                 "{item} pour {owner} : les participations ont atteint l'objectif.",
		"subject." + KindSecretSantaMessage + ".santa":  "Votre Père Noël secret vous a écrit",
		"subject." + KindSecretSantaMessage + ".giftee": "La personne que vous gâtez vous a écrit",
		"line." + KindSecretSantaMessage + ".santa":     "Votre Père Noël secret de {family} vous a écrit.",
		"line." + KindSecretSantaMessage + ".giftee":    "La personne que vous gâtez dans {family} vous a écrit.",
		"subject." + KindSecretSantaDrawn:               "Votre tirage du Père Noël secret est prêt",
		"line." + KindSecretSantaDrawn:                  "Les noms du Père Noël secret de {family} sont tirés : découvrez à qui vous offrez un cadeau.",
		"line." + KindListChanged:                       "Une liste de souhaits que vous suivez a changé.",
		"line." + KindListChanged + ".n":                "Une liste de souhaits que vous suivez a changé ({count} fois).",
		"line." + KindClaimRemoved:                      "{item} a été retiré de la liste de {owner} : vous l'aviez réservé.",
		"line." + KindClaimRemoved + ".pledge":          "{item} a été retiré de la liste de {owner} : vous l'offriez avec d'autres.",
		"line." + KindMemberJoined:                      "{name} a rejoint {family}.",
		"someone":                                       "quelqu'un",
		"subject.digest":                                "Des nouvelles de votre famille sur Santa Wishlist",
		"intro.digest":                                  "Voici ce qui s'est passé depuis notre dernier e-mail :",
		"open":                                          "Ouvrir",
		"footer":                                        "Vous recevez ces e-mails parce qu'ils sont activés dans vos réglages de notifications.",
		"settings":                                      "Réglages des notifications",
		"unsubscribe":                                   "Ne plus recevoir ces e-mails",
	},
	"es": {
		"subject." + KindThankYou:                       "{recipient} te da las gracias por {item}",
		"line." + KindThankYou:                          "{recipient} te da las gracias por {item}: «{message}»",
		"subject." + KindGroupGiftComplete:              "Un regalo conjunto está completo",
		"line." + KindGroupGiftComplete:                 "{item} para {owner}: las aportaciones han alcanzado el objetivo.",
		"subject." + KindSecretSantaMessage + ".santa":  "Tu amigo invisible te ha escrito",
		"subject." + KindSecretSantaMessage + ".giftee": "Tu destinatario te ha escrito",
		"line." + KindSecretSantaMessage + ".santa":     "Tu amigo invisible de {family} te ha escrito.",
		"line." + KindSecretSantaMessage + ".giftee":    "Tu destinatario de {family} te ha escrito.",
		"subject." + KindSecretSantaDrawn:               "Tu amigo invisible ya está listo",
		"line." + KindSecretSantaDrawn:                  "Los nombres del amigo invisible de {family} ya están sorteados: mira a quién le haces un regalo.",
		"line." + KindListChanged:                       "Una lista de deseos que sigues ha cambiado.",
		"line." + KindListChanged + ".n":                "Una lista de deseos que sigues ha cambiado ({count} veces).",
		"line." + KindClaimRemoved:                      "{item} se ha quitado de la lista de {owner}: lo habías reservado.",
		"line." + KindClaimRemoved + ".pledge":          "{item} se ha quitado de la lista de {owner}: ibas a regalarlo junto con otros.",
		"line." + KindMemberJoined:                      "{name} se ha unido a {family}.",
		"someone":                                       "alguien",
		"subject.digest":                                "Novedades de tu familia en Santa Wishlist",
		"intro.digest":                                  "Esto es lo que ha pasado desde nuestro último correo:",
		"open":                                          "Abrir",
		"footer":                                        "Recibes estos correos porque están activados en tus ajustes de notificaciones.",
		"settings":                                      "Ajustes de notificaciones",
		"unsubscribe":                                   "Dejar de recibir estos correos",
	},
}

// text is a text in the language (English where the language lacks it), its placeholders
// filled from pairs.
func text(lang, key string, pairs ...string) string {
	s, ok := texts[lang][key]
	if !ok {
		s = texts["en"][key]
	}
	if len(pairs) > 0 {
		s = strings.NewReplacer(pairs...).Replace(s)
	}
	return s
}

// NoticeMail is an email of notices: one notice sent at once, or a user's digest.
type NoticeMail struct {
	To       string
	Language string
	// PublicURL is the web app's origin; UnsubscribeURL the one-click address of this email.
	PublicURL      string
	UnsubscribeURL string
	Notices        []Notice
	Digest         bool
}

// mailLine is one thing an email tells, with where to see it.
type mailLine struct {
	Text, Link string
}

// lines are what the notices say, a list that changed several times said once.
func (m NoticeMail) lines() []mailLine {
	var out []mailLine
	changed := map[string]int{} // listId -> index in out
	counts := map[string]int{}
	for _, n := range m.Notices {
		kind, ok := KindOf(n)
		if !ok {
			continue
		}
		var d struct {
			FamilyID, FamilyName, DisplayName, ListID, ItemName, OwnerName, Message, With, RecipientName string
			Pledge                                                                                       bool
		}
		_ = json.Unmarshal(n.Data, &d)
		family := d.FamilyName
		switch kind {
		case KindListChanged:
			counts[d.ListID]++
			if i, seen := changed[d.ListID]; seen {
				out[i].Text = text(m.Language, "line."+kind+".n", "{count}", strconv.Itoa(counts[d.ListID]))
				continue
			}
			changed[d.ListID] = len(out)
			out = append(out, mailLine{text(m.Language, "line."+kind), m.PublicURL + "/family"})
		case KindSecretSantaDrawn:
			out = append(out, mailLine{text(m.Language, "line."+kind, "{family}", family), m.PublicURL + santaPath(d.FamilyID)})
		case KindSecretSantaMessage:
			// Which conversation and which family; never the text nor anything of the writer.
			out = append(out, mailLine{text(m.Language, "line."+kind+"."+d.With, "{family}", family), m.PublicURL + santaPath(d.FamilyID)})
		case KindReminderDrawSoon, KindReminderShopping, KindReminderListEmpty, KindReminderExchangeSoon:
			// The reminders' words are the pushes' (reminderText), in the email's language.
			title, body := reminderMailText(n, m.Language)
			link := map[string]string{KindReminderDrawSoon: santaPath(d.FamilyID), KindReminderExchangeSoon: santaPath(d.FamilyID), KindReminderShopping: "/claims",
				KindReminderListEmpty: "/wishlist"}[kind]
			out = append(out, mailLine{title + " — " + body, m.PublicURL + link})
		case KindClaimRemoved:
			owner := d.OwnerName
			if owner == "" {
				owner = text(m.Language, "someone")
			}
			line := text(m.Language, claimRemovedLine(d.Pledge), "{item}", d.ItemName, "{owner}", owner)
			if d.ItemName == "" {
				line = d.Message // from before the names were in the notice: English
			}
			out = append(out, mailLine{line, m.PublicURL + "/claims"})
		case KindMemberJoined:
			out = append(out, mailLine{text(m.Language, "line."+kind, "{name}", d.DisplayName, "{family}", family), m.PublicURL + "/family"})
		case KindThankYou:
			out = append(out, mailLine{text(m.Language, "line."+kind, "{recipient}", d.RecipientName, "{item}", d.ItemName, "{message}", d.Message),
				m.PublicURL + "/gifts/given"})
		case KindGroupGiftComplete:
			out = append(out, mailLine{text(m.Language, "line."+kind, "{item}", d.ItemName, "{owner}", d.OwnerName), m.PublicURL + "/claims"})
		}
	}
	return out
}

var noticeText = template.Must(template.New("text").Parse(`{{if .Intro}}{{.Intro}}

{{end}}{{range .Lines}}- {{.Text}}
  {{.Link}}
{{end}}
--
{{.Footer}}
{{.SettingsLabel}}: {{.Settings}}
{{.UnsubscribeLabel}}: {{.Unsubscribe}}
`))

var noticeHTML = htmltemplate.Must(htmltemplate.New("html").Parse(`<!doctype html>
<html lang="{{.Lang}}"><body style="font-family: sans-serif; line-height: 1.5; color: #222">
{{if .Intro}}<p>{{.Intro}}</p>
{{end}}<ul style="padding-left: 18px">
{{range .Lines}}<li style="margin-bottom: 8px">{{.Text}} <a href="{{.Link}}">{{$.OpenLabel}}</a></li>
{{end}}</ul>
<p style="font-size: 13px; color: #555">{{.Footer}}<br>
<a href="{{.Settings}}">{{.SettingsLabel}}</a> · <a href="{{.Unsubscribe}}">{{.UnsubscribeLabel}}</a></p>
</body></html>
`))

// NoticeEmail writes an email of notices in the user's language; ok is false when none of the
// notices is one that is emailed.
func NoticeEmail(m NoticeMail) (e Email, ok bool, err error) {
	if CheckLanguage(m.Language) != nil {
		m.Language = Languages[0]
	}
	lines := m.lines()
	if len(lines) == 0 {
		return Email{}, false, nil
	}
	view := struct {
		Lang, Intro, Footer, Settings, SettingsLabel, Unsubscribe, UnsubscribeLabel, OpenLabel string
		Lines                                                                                  []mailLine
	}{Lang: m.Language, Footer: text(m.Language, "footer"), Settings: m.PublicURL + "/settings/notifications",
		SettingsLabel: text(m.Language, "settings"), UnsubscribeLabel: text(m.Language, "unsubscribe"),
		OpenLabel: text(m.Language, "open"), Lines: lines, Unsubscribe: m.UnsubscribeURL}
	// The body's link opens the app's page, which confirms and then unsubscribes; the header's
	// (the API's) is for the mail program's one-click button.
	if u, found := strings.CutPrefix(m.UnsubscribeURL, m.PublicURL+"/api/unsubscribe/"); found {
		view.Unsubscribe = m.PublicURL + "/unsubscribe/" + u
	}
	subject := text(m.Language, "subject.digest")
	if m.Digest || len(m.Notices) != 1 {
		view.Intro = text(m.Language, "intro.digest")
	} else if kind, _ := KindOf(m.Notices[0]); texts["en"]["subject."+kind] != "" {
		var d struct{ RecipientName, ItemName string }
		_ = json.Unmarshal(m.Notices[0].Data, &d)
		subject = text(m.Language, "subject."+kind, "{recipient}", d.RecipientName, "{item}", d.ItemName)
	} else if key := "subject." + kind + "." + withOf(m.Notices[0]); texts["en"][key] != "" {
		subject = text(m.Language, key)
	} else if title, _ := reminderMailText(m.Notices[0], m.Language); title != "" {
		subject = title
	}
	var txt, html bytes.Buffer
	if err := noticeText.Execute(&txt, view); err != nil {
		return Email{}, false, err
	}
	if err := noticeHTML.Execute(&html, view); err != nil {
		return Email{}, false, err
	}
	return Email{To: m.To, Subject: subject, Text: txt.String(), HTML: html.String(), Unsubscribe: m.UnsubscribeURL}, true, nil
}

// withOf is a secret-santa-message notice's conversation ("santa" or "giftee"), else "".
func withOf(n Notice) string {
	var d struct{ With string }
	_ = json.Unmarshal(n.Data, &d)
	return d.With
}

// santaPath is a family's Secret Santa page, or the families page without a family id.
func santaPath(familyID string) string {
	if familyID == "" {
		return "/family"
	}
	return "/family/" + url.PathEscape(familyID) + "/secret-santa"
}

// reminderMailText is a reminder notice's title and body in lang; empty for other notices.
func reminderMailText(n Notice, lang string) (title, body string) {
	var d ReminderData
	if json.Unmarshal(n.Data, &d) != nil {
		return "", ""
	}
	return reminderText(n.Event, d, lang)
}
