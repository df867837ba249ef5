package domain

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/santa-wishlist/santa/pkg/events"
)

// Server-Sent Event names of the reminders.
const (
	// EventReminderDrawSoon: a family's planned Secret Santa draw is near; to its admins.
	EventReminderDrawSoon = "reminder-draw-soon"
	// EventReminderShopping: the claimer's own not-purchased claims of a reveal date a week off.
	EventReminderShopping = "reminder-shopping"
	// EventReminderListEmpty: the owner's shared list has no items a month before its reveal date.
	EventReminderListEmpty = "reminder-list-empty"
	// EventReminderExchangeSoon: the family's Secret Santa exchange is near; to each participant.
	EventReminderExchangeSoon = "reminder-exchange-soon"
)

// ReminderData is the data of the three reminder notices: Title and Message are English (the
// web app shows its own words in another language, from the other fields); each kind fills
// its own fields and nothing a claim on the recipient's own lists would tell them.
type ReminderData struct {
	Title    string `json:"title"`
	Message  string `json:"message"`
	DaysLeft int    `json:"daysLeft"`
	// reminder-draw-soon
	FamilyID   string `json:"familyId,omitempty"`
	FamilyName string `json:"familyName,omitempty"`
	DrawOn     string `json:"drawOn,omitempty"`
	// reminder-exchange-soon (with familyId and familyName)
	ExchangeOn string `json:"exchangeOn,omitempty"`
	Place      string `json:"place,omitempty"`
	// reminder-shopping (the recipient's own claims) and reminder-list-empty
	RevealAt     *time.Time `json:"revealAt,omitempty"`
	NotPurchased int        `json:"notPurchased,omitempty"`
	ListID       string     `json:"listId,omitempty"`
	ListName     string     `json:"listName,omitempty"`
}

// reminderNotice builds the notice of a reminder event: one, to the envelope's userId (the
// producer addressed it; the shopping reminder's is the claimer, never a list's owner).
func reminderNotice(env events.Envelope) ([]Notice, error) {
	var d ReminderData
	var event string
	switch env.Type {
	case events.TypeReminderDrawSoon:
		var in events.DrawSoonData
		if err := json.Unmarshal(env.Data, &in); err != nil || in.FamilyID == "" || in.DrawOn == "" || in.DaysLeft < 0 {
			return nil, fmt.Errorf("%w: reminder.draw_soon needs a familyId, a drawOn and daysLeft", ErrMalformed)
		}
		event = EventReminderDrawSoon
		d = ReminderData{DaysLeft: in.DaysLeft, FamilyID: in.FamilyID, FamilyName: in.FamilyName, DrawOn: in.DrawOn}
	case events.TypeReminderExchangeSoon:
		var in events.ExchangeSoonData
		if err := json.Unmarshal(env.Data, &in); err != nil || in.FamilyID == "" || in.ExchangeOn == "" || in.DaysLeft < 0 {
			return nil, fmt.Errorf("%w: reminder.exchange_soon needs a familyId, an exchangeOn and daysLeft", ErrMalformed)
		}
		event = EventReminderExchangeSoon
		d = ReminderData{DaysLeft: in.DaysLeft, FamilyID: in.FamilyID, FamilyName: in.FamilyName, ExchangeOn: in.ExchangeOn, Place: in.Place}
	case events.TypeReminderShopping:
		var in events.ShoppingData
		if err := json.Unmarshal(env.Data, &in); err != nil || in.NotPurchased < 1 || in.DaysLeft < 0 || in.RevealAt.IsZero() {
			return nil, fmt.Errorf("%w: reminder.shopping needs notPurchased, daysLeft and revealAt", ErrMalformed)
		}
		event = EventReminderShopping
		at := in.RevealAt.UTC()
		d = ReminderData{DaysLeft: in.DaysLeft, RevealAt: &at, NotPurchased: in.NotPurchased}
	case events.TypeReminderListEmpty:
		var in events.ListEmptyData
		if err := json.Unmarshal(env.Data, &in); err != nil || in.ListID == "" || in.DaysLeft < 0 || in.RevealAt.IsZero() {
			return nil, fmt.Errorf("%w: reminder.list_empty needs a listId, daysLeft and revealAt", ErrMalformed)
		}
		event = EventReminderListEmpty
		at := in.RevealAt.UTC()
		d = ReminderData{DaysLeft: in.DaysLeft, RevealAt: &at, ListID: in.ListID, ListName: in.ListName}
	default:
		return nil, fmt.Errorf("%w: %s is not a reminder", ErrMalformed, env.Type)
	}
	d.Title, d.Message = reminderText(event, d, "en")
	data, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return []Notice{{EventID: env.ID, UserID: env.UserID, OccurredAt: env.OccurredAt, Event: event, Data: data}}, nil
}

// Language is the supported language (Languages) of a tag such as "de-AT", or "en".
func Language(tag string) string {
	base := strings.ToLower(strings.TrimSpace(tag))
	if i := strings.IndexAny(base, "-_"); i >= 0 {
		base = base[:i]
	}
	for _, l := range Languages {
		if l == base {
			return l
		}
	}
	return "en"
}

// reminderTexts are a reminder's title and body in one language; days, counts and names are
// filled in by reminderText.
type reminderTexts struct {
	drawIn      func(days int) string
	drawBody    string // %s: the family
	christmasIn func(days int) string
	notBought   func(n int) string
	emptyTitle  string
	emptyBody   string // %s: the list
	exchangeIn  func(days int) string
	exchangeAt  string // %s: the family, %s: the place
}

func plural(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return fmt.Sprintf(other, n)
}

var reminderCatalog = map[string]reminderTexts{
	"en": {
		exchangeIn: func(d int) string {
			if d == 0 {
				return "Secret Santa exchange today"
			}
			return plural(d, "Secret Santa exchange tomorrow", "Secret Santa exchange in %d days")
		},
		exchangeAt: "%s: presents are swapped at %s.",
		drawIn: func(d int) string {
			if d == 0 {
				return "Secret Santa draw today"
			}
			return plural(d, "Secret Santa draw tomorrow", "Secret Santa draw in %d days")
		},
		drawBody:    "%s: the names have not been drawn yet.",
		christmasIn: func(d int) string { return plural(d, "Christmas in 1 day", "Christmas in %d days") },
		notBought: func(n int) string {
			return plural(n, "1 gift on your shopping list is not marked purchased", "%d gifts on your shopping list are not marked purchased")
		},
		emptyTitle: "Your list is empty",
		emptyBody:  "%s is shared, but has no wishes yet.",
	},
	"de": {
		exchangeIn: func(d int) string {
			if d == 0 {
				return "Wichteln: heute ist Bescherung"
			}
			return plural(d, "Wichteln: morgen ist Bescherung", "Wichteln: Bescherung in %d Tagen")
		},
		exchangeAt: "%s: Die Geschenke werden hier getauscht: %s.",
		drawIn: func(d int) string {
			if d == 0 {
				return "Wichteln: heute wird gezogen"
			}
			return plural(d, "Wichteln: morgen wird gezogen", "Wichteln: in %d Tagen wird gezogen")
		},
		drawBody:    "%s: Die Namen sind noch nicht gezogen.",
		christmasIn: func(d int) string { return plural(d, "Weihnachten in 1 Tag", "Weihnachten in %d Tagen") },
		notBought: func(n int) string {
			return plural(n, "1 Geschenk auf deiner Einkaufsliste ist noch nicht als gekauft markiert",
				"%d Geschenke auf deiner Einkaufsliste sind noch nicht als gekauft markiert")
		},
		emptyTitle: "Deine Liste ist leer",
		emptyBody:  "%s ist geteilt, hat aber noch keine Wünsche.",
	},
	"fr": {
		exchangeIn: func(d int) string {
			if d == 0 {
				return "Échange du Père Noël secret aujourd'hui"
			}
			return plural(d, "Échange du Père Noël secret demain", "Échange du Père Noël secret dans %d jours")
		},
		exchangeAt: "%s : les cadeaux sont échangés à %s.",
		drawIn: func(d int) string {
			if d == 0 {
				return "Tirage du Père Noël secret aujourd'hui"
			}
			return plural(d, "Tirage du Père Noël secret demain", "Tirage du Père Noël secret dans %d jours")
		},
		drawBody:    "%s : les noms n'ont pas encore été tirés.",
		christmasIn: func(d int) string { return plural(d, "Noël dans 1 jour", "Noël dans %d jours") },
		notBought: func(n int) string {
			return plural(n, "1 cadeau de votre liste d'achats n'est pas marqué comme acheté",
				"%d cadeaux de votre liste d'achats ne sont pas marqués comme achetés")
		},
		emptyTitle: "Votre liste est vide",
		emptyBody:  "%s est partagée, mais ne contient encore aucun souhait.",
	},
	"es": {
		exchangeIn: func(d int) string {
			if d == 0 {
				return "Intercambio del amigo invisible hoy"
			}
			return plural(d, "Intercambio del amigo invisible mañana", "Intercambio del amigo invisible en %d días")
		},
		exchangeAt: "%s: los regalos se intercambian en %s.",
		drawIn: func(d int) string {
			if d == 0 {
				return "Sorteo del amigo invisible hoy"
			}
			return plural(d, "Sorteo del amigo invisible mañana", "Sorteo del amigo invisible en %d días")
		},
		drawBody:    "%s: todavía no se han sorteado los nombres.",
		christmasIn: func(d int) string { return plural(d, "Navidad en 1 día", "Navidad en %d días") },
		notBought: func(n int) string {
			return plural(n, "1 regalo de tu lista de compras no está marcado como comprado",
				"%d regalos de tu lista de compras no están marcados como comprados")
		},
		emptyTitle: "Tu lista está vacía",
		emptyBody:  "%s está compartida, pero aún no tiene deseos.",
	},
}

// reminderText is a reminder notice's title and body in lang.
func reminderText(event string, d ReminderData, lang string) (title, body string) {
	c, ok := reminderCatalog[Language(lang)]
	if !ok {
		c = reminderCatalog["en"]
	}
	switch event {
	case EventReminderDrawSoon:
		return c.drawIn(d.DaysLeft), fmt.Sprintf(c.drawBody, d.FamilyName)
	case EventReminderShopping:
		return c.christmasIn(d.DaysLeft), c.notBought(d.NotPurchased)
	case EventReminderListEmpty:
		return c.emptyTitle, fmt.Sprintf(c.emptyBody, "“"+d.ListName+"”")
	case EventReminderExchangeSoon:
		if d.Place == "" {
			return c.exchangeIn(d.DaysLeft), d.FamilyName
		}
		return c.exchangeIn(d.DaysLeft), fmt.Sprintf(c.exchangeAt, d.FamilyName, d.Place)
	}
	return "", ""
}

// reminderPush is the push of a reminder notice in lang, opening the screen it is about.
func reminderPush(n Notice, lang string) (Push, bool) {
	var d ReminderData
	if json.Unmarshal(n.Data, &d) != nil {
		return Push{}, false
	}
	title, body := reminderText(n.Event, d, lang)
	p := Push{Message: PushMessage{Title: title, Body: body, Kind: n.Event}, Urgency: "normal"}
	switch n.Event {
	case EventReminderDrawSoon:
		if d.FamilyID == "" {
			return Push{}, false
		}
		p.Message.URL, p.Message.Tag = "/family/"+d.FamilyID+"/secret-santa", "draw-soon-"+d.FamilyID
		p.TTL, p.Topic = time.Duration(d.DaysLeft+1)*24*time.Hour, topic("rd", d.FamilyID)
	case EventReminderExchangeSoon:
		if d.FamilyID == "" {
			return Push{}, false
		}
		p.Message.URL, p.Message.Tag = "/family/"+d.FamilyID+"/secret-santa", "exchange-soon-"+d.FamilyID
		p.TTL, p.Topic = time.Duration(d.DaysLeft+1)*24*time.Hour, topic("rx", d.FamilyID)
	case EventReminderShopping:
		p.Message.URL, p.Message.Tag = "/claims", "shopping-reminder"
		p.TTL, p.Topic = time.Duration(d.DaysLeft+1)*24*time.Hour, topic("rs", n.UserID)
	case EventReminderListEmpty:
		if d.ListID == "" {
			return Push{}, false
		}
		p.Message.URL, p.Message.Tag = "/wishlist?list="+d.ListID, "list-empty-"+d.ListID
		p.TTL, p.Topic, p.Urgency = 7*24*time.Hour, topic("re", d.ListID), "low"
	default:
		return Push{}, false
	}
	return p, true
}
