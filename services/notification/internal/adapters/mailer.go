package adapters

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/wneessen/go-mail"

	"github.com/santa-wishlist/santa/services/notification/internal/domain"
)

// SMTPMailer sends through an SMTP server given as a URL: smtp://[user:password@]host:port
// (STARTTLS when the server offers it) or smtps://... (TLS from the first byte).
type SMTPMailer struct {
	host string
	opts []mail.Option
	from string
}

// NewSMTPMailer checks the URL and the sender address.
func NewSMTPMailer(smtpURL, from string) (*SMTPMailer, error) {
	u, err := url.Parse(smtpURL)
	if err != nil || u.Hostname() == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") {
		return nil, fmt.Errorf("SMTP_URL must look like smtp://host:port or smtps://user:password@host:port")
	}
	opts := []mail.Option{mail.WithTimeout(10 * time.Second), mail.WithTLSPolicy(mail.TLSOpportunistic)}
	if u.Scheme == "smtps" {
		opts = append(opts, mail.WithSSL())
	}
	if p := u.Port(); p != "" {
		port, err := strconv.Atoi(p)
		if err != nil {
			return nil, fmt.Errorf("SMTP_URL: bad port %q", p)
		}
		opts = append(opts, mail.WithPort(port))
	}
	if u.User != nil {
		password, _ := u.User.Password()
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthAutoDiscover), mail.WithUsername(u.User.Username()), mail.WithPassword(password))
	}
	if err := mail.NewMsg().From(from); err != nil {
		return nil, fmt.Errorf("MAIL_FROM %q: %w", from, err)
	}
	return &SMTPMailer{host: u.Hostname(), opts: opts, from: from}, nil
}

// Send delivers one email with the given Message-ID, so a copy sent again after a crash is
// recognisably the same message.
func (m *SMTPMailer) Send(ctx context.Context, messageID string, e domain.Email) error {
	msg := mail.NewMsg()
	if err := msg.From(m.from); err != nil {
		return err
	}
	if err := msg.To(e.To); err != nil {
		return fmt.Errorf("recipient: %w", err)
	}
	msg.Subject(e.Subject)
	msg.SetMessageIDWithValue(messageID)
	msg.SetDate()
	if e.Unsubscribe != "" {
		// RFC 8058: the mail program's unsubscribe button POSTs List-Unsubscribe=One-Click to
		// the address, without the user signing in. ASCII only, so preformatted.
		msg.SetGenHeaderPreformatted("List-Unsubscribe", "<"+e.Unsubscribe+">")
		msg.SetGenHeaderPreformatted("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	msg.SetBodyString(mail.TypeTextPlain, e.Text)
	msg.AddAlternativeString(mail.TypeTextHTML, e.HTML)
	client, err := mail.NewClient(m.host, m.opts...)
	if err != nil {
		return err
	}
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("send email: %w", err)
	}
	return nil
}
