import { Link } from "react-router";
import { paths } from "#domain/routes";
import { LegalDocument, type LegalSection } from "#web/components/layout/legal-document";
import { Card } from "#web/components/ui/card";

const sections: LegalSection[] = [
  {
    id: "who-we-are",
    title: "Who we are",
    body: (
      <>
        <p>
          Stackbay is a business-to-business marketplace for technology products: SaaS subscriptions, APIs,
          hardware, software licenses and digital services. The platform is operated by{" "}
          <strong>Stackbay FZCO</strong>, a company registered in Dubai Silicon Oasis, Dubai, United Arab
          Emirates. Our customer support team works from India.
        </p>
        <p>
          Stackbay FZCO decides how and why personal data about platform users is processed, and is therefore
          the controller of that data. This policy covers the Stackbay website, the dashboard, our APIs and
          the e-mails we send. When a seller receives your details to fulfil an order, the seller is
          responsible for its own use of them under its own privacy notice.
        </p>
      </>
    ),
  },
  {
    id: "information-we-collect",
    title: "Information we collect",
    body: (
      <>
        <p>We collect only what we need to run the marketplace safely. That falls into three groups.</p>
        <h3>Information you give us</h3>
        <ul>
          <li>
            <strong>Account details:</strong> your name, business e-mail address, password (stored only as a
            secure hash), company name, country and the roles you hold (buyer, seller, reseller or partner).
          </li>
          <li>
            <strong>Verification (KYC) details</strong> for sellers and resellers: legal entity name,
            registration and tax numbers, identity documents of the people who own or control the business,
            and the bank details we pay out to.
          </li>
          <li>
            <strong>Order and billing details:</strong> what you bought, billing address and tax ID. Card
            numbers are entered with our payment processor; we never see or store a full card number.
          </li>
          <li>
            <strong>Content and messages:</strong> product listings, reviews, support requests, contact-form
            messages and your newsletter subscription.
          </li>
        </ul>
        <h3>Information collected automatically</h3>
        <ul>
          <li>
            <strong>Technical and log data:</strong> IP address, browser and device type, pages requested and
            the time of each request, used to keep the service running and secure.
          </li>
          <li>
            <strong>Referral data:</strong> when you arrive through a reseller's or partner's tracked link,
            the link code and whether an order followed, so the right person is credited.
          </li>
          <li>
            <strong>Cookies and local storage,</strong> described in section 5.
          </li>
        </ul>
        <h3>Information from others</h3>
        <ul>
          <li>Payment processors tell us whether a payment succeeded and flag suspected fraud.</li>
          <li>Identity-verification services confirm the KYC details sellers and resellers provide.</li>
          <li>Sellers tell us when a license has been delivered or activated.</li>
        </ul>
        <p>
          Stackbay is for business users aged 18 or over; we do not knowingly collect data about children. We
          do not ask for sensitive data such as health or religious beliefs, so please do not include it in
          messages to us.
        </p>
      </>
    ),
  },
  {
    id: "how-we-use-information",
    title: "How we use information",
    body: (
      <>
        <p>We use personal data to:</p>
        <ul>
          <li>create and run your account and the roles attached to it;</li>
          <li>take payments, settle them in USD and deliver license keys, access details or shipments;</li>
          <li>pay sellers, and credit resellers and partners for the orders their links bring in;</li>
          <li>verify sellers and resellers, screen against sanctions lists and prevent fraud and abuse;</li>
          <li>answer support requests and handle refunds and disputes;</li>
          <li>send service messages such as order receipts, security alerts and changes to our terms;</li>
          <li>send our newsletter and offers, but only if you subscribed, and never after you opt out;</li>
          <li>
            understand how the platform is used so we can improve it (analytics only with your consent);
          </li>
          <li>keep the records that tax, accounting and other laws require of us.</li>
        </ul>
        <p>
          We do not sell personal data and we do not share it with advertisers. Automated checks may hold a
          suspicious order or payout for review, but a person at Stackbay makes the decision before any
          account is suspended or closed.
        </p>
      </>
    ),
  },
  {
    id: "legal-basis",
    title: "Legal basis for processing",
    body: (
      <>
        <p>
          Depending on where you are, data-protection laws such as the UAE Personal Data Protection Law, the
          EU and UK GDPR and India's Digital Personal Data Protection Act require a lawful reason for each use
          of your data. We rely on the following:
        </p>
        <ul>
          <li>
            <strong>Contract:</strong> to open your account, process orders, pay out sellers and resellers and
            provide support, which we cannot do without the data.
          </li>
          <li>
            <strong>Legitimate interest:</strong> to secure the platform, prevent fraud, improve our service
            and defend legal claims. We weigh these interests against your rights, and you can object (section
            8).
          </li>
          <li>
            <strong>Consent:</strong> for analytics and for marketing e-mails. You can withdraw consent at any
            time, without affecting processing that already took place.
          </li>
          <li>
            <strong>Legal obligation:</strong> for KYC and anti-money-laundering checks, sanctions screening,
            tax and accounting records, and lawful requests from authorities.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    body: (
      <>
        <p>We keep cookies and similar storage to a minimum:</p>
        <ul>
          <li>
            <strong>Session cookie (strictly necessary):</strong> keeps you signed in and protects your
            requests. It cannot be read by scripts on the page and ends when you sign out or the session
            expires.
          </li>
          <li>
            <strong>Sign-up cookie (strictly necessary):</strong> set when you sign up, so that the code we
            e-mail you also signs you in, but only in that browser. It holds no personal data, cannot be read
            by scripts and ends when the code is used or after 30 minutes.
          </li>
          <li>
            <strong>FAQ vote cookie:</strong> a random, anonymous identifier set only when you rate an FAQ
            answer, so each visitor votes once. It holds nothing about you and expires after one year.
          </li>
          <li>
            <strong>Preferences in local storage:</strong> your theme (light, dark or system), display
            currency and cart contents are kept in your browser's local storage so they survive a reload. They
            stay on your device until you clear them; cart contents are sent to us only when you check out.
          </li>
          <li>
            <strong>Analytics:</strong> used only if you agree, and switched off again if you withdraw
            consent.
          </li>
        </ul>
        <p>
          We do not use third-party advertising cookies and we do not track you across other websites. You can
          delete cookies and local storage in your browser settings; if you block the session cookie, you will
          not be able to sign in.
        </p>
      </>
    ),
  },
  {
    id: "third-party-processors",
    title: "Third-party processors",
    body: (
      <>
        <p>
          We use carefully chosen service providers that process data on our behalf, only on our instructions
          and under written contracts that require them to keep it secure. By category:
        </p>
        <ul>
          <li>
            <strong>Payment processors:</strong> take card and bank payments in USD, screen for fraud and send
            payouts. They receive your name, billing details, payment details and the order amount.
          </li>
          <li>
            <strong>E-mail delivery:</strong> send order confirmations, license keys, password resets and, if
            you subscribed, our newsletter.
          </li>
          <li>
            <strong>Hosting and infrastructure:</strong> run our servers, databases and backups in the regions
            described in section 7.
          </li>
          <li>
            <strong>Identity verification:</strong> check the KYC details of sellers and resellers.
          </li>
          <li>
            <strong>Analytics:</strong> measure how the platform is used, and only with your consent.
          </li>
        </ul>
        <p>Some data also goes to parties who are not our processors:</p>
        <ul>
          <li>
            <strong>Sellers</strong> receive the details they need to deliver and support what you bought,
            such as your name, company, business e-mail and order.
          </li>
          <li>
            <strong>Resellers and partners</strong> see the orders and commission credited to their links, but
            not your contact details.
          </li>
          <li>
            <strong>Authorities</strong> receive data when the law requires it; we check each request first.
          </li>
        </ul>
        <p>
          The current list of processors is available on request from{" "}
          <a href="mailto:privacy@stackbay.test">privacy@stackbay.test</a>.
        </p>
      </>
    ),
  },
  {
    id: "data-storage",
    title: "Data storage by region",
    body: (
      <>
        <p>
          We host Stackbay in more than one cloud region and store account data in the region assigned to your
          country, where one is available. For example, data of customers in the EU and EEA is stored in data
          centres inside the EU. Backups stay in the same region as the data they copy.
        </p>
        <p>
          Some people and services reach that data from other countries: our support team in India and our
          staff in the UAE, on a need-to-know basis, and payment processors, which may process payments in
          their own regions. Where data leaves its region, we protect it with contractual safeguards such as
          standard contractual clauses, together with access controls and logging.
        </p>
        <p>
          Data is encrypted in transit with TLS and encrypted at rest. If you want to know which region holds
          your data, ask us at <a href="mailto:privacy@stackbay.test">privacy@stackbay.test</a>.
        </p>
      </>
    ),
  },
  {
    id: "your-rights",
    title: "Access, correction and deletion",
    body: (
      <>
        <p>Whichever country you are in, you can ask us to:</p>
        <ul>
          <li>
            <strong>Access</strong> the personal data we hold about you and learn how we use it;
          </li>
          <li>
            <strong>Correct</strong> data that is wrong or incomplete;
          </li>
          <li>
            <strong>Delete</strong> your data, apart from records the law requires us to keep (section 9);
          </li>
          <li>
            <strong>Port</strong> your data: receive it in a machine-readable format (JSON or CSV) to take
            elsewhere;
          </li>
          <li>
            <strong>Object</strong> to processing based on legitimate interest, and to direct marketing at any
            time.
          </li>
        </ul>
        <h3>Download your data or delete your account yourself</h3>
        <p>
          In your dashboard, under <strong>Settings → Your data and account</strong>:
        </p>
        <ul>
          <li>
            <strong>Download my data</strong> gives you at once a JSON file of everything we hold about your
            account: profile and preferences, orders with their items, licenses (keys shown only by their last
            four characters), refund requests, reviews, questions, saved products, earnings, commissions and
            payouts, your payout method (masked) and the changes you made. Passwords, two-factor secrets, bank
            details and session data are never in it.
          </li>
          <li>
            <strong>Delete my account</strong> asks for your password (and your authenticator code if
            two-factor is on). It waits while an order is awaiting payment, a refund request is open, a
            shipment has not arrived, or an earnings balance or payout is outstanding, and tells you which.
            Otherwise, at once: your name, e-mail address, phone and address are erased, your password,
            two-factor set-up, sessions, payout details and saved products are removed and you are signed out;
            your reviews and questions stay, shown as written by a "Former customer"; a seller's listings are
            taken off sale and the storefront removed. Invoices already issued stay as issued, with the
            billing details on them, for as long as tax law requires (section 9); the billing details of
            orders that were never invoiced are erased. Your e-mail address can then be used to sign up again,
            as a new account.
          </li>
        </ul>
        <h3>How to exercise your rights</h3>
        <p>
          You can update most profile details yourself in your dashboard, and every marketing e-mail has an
          unsubscribe link. For anything else, write to{" "}
          <a href="mailto:privacy@stackbay.test">privacy@stackbay.test</a> from the e-mail address on your
          account, or use our <Link to={paths.contact()}>contact form</Link>. We may ask you to confirm your
          identity before acting on a request.
        </p>
        <p>
          We reply within 5 business days. If a request needs more time, for example a complete export, we
          tell you within those 5 days when it will be done, always within the deadline the law gives us.
          Requests are free of charge. If you are unhappy with our answer, you may complain to the
          data-protection authority where you live or work.
        </p>
      </>
    ),
  },
  {
    id: "retention",
    title: "Retention",
    body: (
      <>
        <p>We keep personal data only as long as we need it:</p>
        <ul>
          <li>
            <strong>Account data</strong> is kept while your account is open. Accounts inactive for more than
            12 months may be closed after we notify you.
          </li>
          <li>
            <strong>Billing, licensing and legal records</strong>, including KYC records, are kept for up to 5
            years, as tax, accounting and anti-money-laundering rules require.
          </li>
          <li>
            <strong>Trial data</strong> from trials that have stayed dormant is anonymised after 12 months of
            inactivity.
          </li>
          <li>
            <strong>Security logs</strong> are kept only as long as needed to investigate and prevent
            incidents.
          </li>
        </ul>
        <p>
          When a retention period ends, we delete the data or anonymise it so it can no longer identify you.
          Deleted data disappears from backups as they are replaced in the normal backup cycle.
        </p>
      </>
    ),
  },
  {
    id: "updates",
    title: "Updates to this policy",
    body: (
      <>
        <p>
          We may update this policy when our services, our providers or the law change. The effective date at
          the top of the page always shows the current version.
        </p>
        <p>
          If a change materially affects how we use your data, we tell you by e-mail or in your dashboard
          before it takes effect and, where the law requires it, ask for your consent again. Earlier versions
          are available on request.
        </p>
      </>
    ),
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <>
        <p>For questions about this policy or your personal data, contact:</p>
        <Card asChild className="p-5 not-italic" flat>
          <address>
            <strong>Stackbay FZCO</strong>
            <br />
            Dubai Silicon Oasis, Dubai, UAE
            <br />
            Privacy: <a href="mailto:privacy@stackbay.test">privacy@stackbay.test</a>
            <br />
            Legal: <a href="mailto:legal@stackbay.test">legal@stackbay.test</a>
          </address>
        </Card>
        <p>
          We answer legal, compliance and privacy requests within 5 business days. For general questions, use
          our <Link to={paths.contact()}>contact page</Link>. How we run the marketplace itself is set out in
          our <Link to={paths.terms()}>Terms of Service</Link>.
        </p>
      </>
    ),
  },
];

export function Component() {
  return (
    <LegalDocument
      title="Privacy Policy"
      effectiveDate="01-06-2025"
      effectiveDateTime="2025-06-01"
      intro={
        <p>
          This policy explains what personal data Stackbay collects when you buy, sell or promote technology
          products on our marketplace, why we collect it, where we keep it and the choices you have. We have
          tried to write it plainly; if anything is unclear, please{" "}
          <a href="mailto:privacy@stackbay.test">ask us</a>.
        </p>
      }
      sections={sections}
    />
  );
}
