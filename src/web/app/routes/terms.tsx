import { Link } from "react-router";
import { paths } from "#domain/routes";
import { LegalDocument, type LegalSection } from "#web/components/layout/legal-document";
import { Card } from "#web/components/ui/card";

const sections: LegalSection[] = [
  {
    id: "introduction",
    title: "Introduction and legal framework",
    body: (
      <>
        <p>
          These Terms of Service ("Terms") govern your use of Stackbay, a business-to-business marketplace for
          technology products operated by <strong>Stackbay FZCO</strong>, a company registered in Dubai
          Silicon Oasis, Dubai, United Arab Emirates.
        </p>
        <p>
          By creating an account, placing an order, publishing a listing or sharing a referral link, you
          accept these Terms. If you act for a company, you confirm that you are authorised to bind it, and
          "you" means that company as well as you.
        </p>
        <p>
          These Terms are read together with our <Link to={paths.privacy()}>Privacy Policy</Link> and the
          license terms each seller publishes on its listings. If they conflict, these Terms govern your use
          of the platform and the seller's license terms govern your use of the product.
        </p>
      </>
    ),
  },
  {
    id: "definitions",
    title: "Definitions",
    body: (
      <dl>
        <div>
          <dt>Platform</dt>
          <dd>The Stackbay website, dashboard, APIs and related services.</dd>
        </div>
        <div>
          <dt>Stackbay, we, us</dt>
          <dd>Stackbay FZCO, the operator of the Platform.</dd>
        </div>
        <div>
          <dt>User, you</dt>
          <dd>Anyone who uses the Platform, with or without an account.</dd>
        </div>
        <div>
          <dt>Account</dt>
          <dd>Your registered profile, which can hold one or more roles.</dd>
        </div>
        <div>
          <dt>Buyer</dt>
          <dd>A User who purchases Products.</dd>
        </div>
        <div>
          <dt>Seller</dt>
          <dd>A User who lists and supplies Products, and is responsible for them.</dd>
        </div>
        <div>
          <dt>Reseller</dt>
          <dd>A User who earns Commission by selling resellable Products through unique tracked links.</dd>
        </div>
        <div>
          <dt>Product</dt>
          <dd>
            A SaaS subscription, API, hardware item, software license or digital service listed for sale.
          </dd>
        </div>
        <div>
          <dt>Order</dt>
          <dd>A Buyer's confirmed purchase of one or more Products.</dd>
        </div>
        <div>
          <dt>Commission</dt>
          <dd>The amount a Reseller earns on an Order placed through its tracked link.</dd>
        </div>
        <div>
          <dt>KYC</dt>
          <dd>"Know your customer": the checks we run on a business and the people behind it.</dd>
        </div>
        <div>
          <dt>Business day</dt>
          <dd>Any day other than a Saturday, a Sunday or a public holiday in the UAE.</dd>
        </div>
      </dl>
    ),
  },
  {
    id: "eligibility",
    title: "Eligibility and registration",
    body: (
      <>
        <p>To use Stackbay you must:</p>
        <ul>
          <li>be at least 18 years old and able to enter into a binding contract;</li>
          <li>
            not be subject to sanctions: you, your company and its owners must not appear on a sanctions list
            or be located in, or act for, a sanctioned country or territory;
          </li>
          <li>give accurate, complete registration details and keep them up to date.</li>
        </ul>
        <p>
          You are responsible for keeping your password safe and for everything done through your account.
          Tell us at once if you suspect someone else is using it. We may refuse or cancel a registration that
          does not meet these requirements.
        </p>
      </>
    ),
  },
  {
    id: "platform-scope",
    title: "Platform scope and roles",
    body: (
      <>
        <p>
          Stackbay is a marketplace: it connects Buyers with Sellers and handles checkout and payment. Unless
          a listing says otherwise, Stackbay does not make or supply the Products; each Seller is responsible
          for its own Products, their descriptions and their delivery.
        </p>
        <p>One account may hold several roles at once:</p>
        <ul>
          <li>
            <strong>Buyer:</strong> purchases Products for use in its business.
          </li>
          <li>
            <strong>Seller:</strong> lists Products, fulfils Orders and receives payouts.
          </li>
          <li>
            <strong>Reseller:</strong> sells resellable Products through tracked links and earns Commission.
          </li>
        </ul>
        <p>
          Sellers and Resellers may need to complete KYC verification. Until it is complete, or if it fails,
          we may restrict payouts, the publishing of listings or Reseller privileges.
        </p>
      </>
    ),
  },
  {
    id: "user-responsibilities",
    title: "User responsibilities",
    body: (
      <>
        <p>When you use Stackbay, you agree not to:</p>
        <ul>
          <li>break any law, including export-control and sanctions rules;</li>
          <li>list or sell counterfeit, pirated, stolen or unauthorised Products or license keys;</li>
          <li>upload malware or interfere with the Platform's security or availability;</li>
          <li>scrape the Platform or use our APIs beyond their published limits;</li>
          <li>move a transaction off the Platform to avoid fees, or manipulate reviews or referrals;</li>
          <li>send spam or make misleading claims about Products, Sellers or Stackbay.</li>
        </ul>
        <p>
          Sellers must also describe their Products accurately, deliver them as promised, honour the license
          terms they publish, and meet their own tax obligations. We may remove content or listings that break
          these rules.
        </p>
      </>
    ),
  },
  {
    id: "transactions-payments",
    title: "Transactions and payments",
    body: (
      <>
        <ul>
          <li>
            <strong>Currency:</strong> prices are stored in US dollars (USD). For convenience we can display
            them in AED, EUR, GBP or INR; those amounts are approximations based on recent exchange rates.
          </li>
          <li>
            <strong>Settlement:</strong> every payment is charged and settled in USD. Your bank or card issuer
            may apply its own conversion rate and fees.
          </li>
          <li>
            <strong>Taxes:</strong> where we must collect taxes, they are shown at checkout before you pay.
          </li>
          <li>
            <strong>Confirmation:</strong> an Order is confirmed once payment succeeds; license keys or access
            details are then delivered to your dashboard and by e-mail.
          </li>
          <li>
            <strong>Payouts:</strong> Sellers are paid in USD, after platform fees and any Commission, subject
            to completed KYC and to holds for open refunds or disputes.
          </li>
        </ul>
        <p>Payments are handled by third-party payment processors; we do not store full card numbers.</p>
      </>
    ),
  },
  {
    id: "refunds-disputes",
    title: "Refunds, cancellations and disputes",
    body: (
      <>
        <p>If something is wrong with an Order, the refund process works like this:</p>
        <ol>
          <li>
            <strong>Request:</strong> the Buyer requests a refund from the dashboard and explains the reason.
          </li>
          <li>
            <strong>Seller response:</strong> the Seller has 3 business days to accept, decline with reasons
            or propose another solution.
          </li>
          <li>
            <strong>Final review:</strong> if the case is not resolved, it goes to Stackbay for a final review
            of the evidence from both sides.
          </li>
          <li>
            <strong>Payment:</strong> approved refunds are paid to the original payment method within 5–10
            business days.
          </li>
        </ol>
        <p>
          Subscriptions can be cancelled from the dashboard and end at the close of the current billing
          period. Digital Products that have been delivered or activated can be cancelled only through the
          refund process above. Please use that process before raising a chargeback with your bank, so we can
          resolve the case quickly. Nothing in this section limits rights you have under mandatory law.
        </p>
      </>
    ),
  },
  {
    id: "reseller-terms",
    title: "Reseller terms",
    body: (
      <>
        <p>
          Resellers earn Commission through unique tracked links on Products that Sellers have marked as
          resellable. The Commission rate for each Product is shown in the Reseller dashboard.
        </p>
        <ul>
          <li>Commission is credited only for Orders that come through your own tracked link.</li>
          <li>Buying through your own link, or encouraging fake Orders, is not allowed.</li>
          <li>Commission on an Order that is refunded or charged back is reversed.</li>
          <li>
            You must describe Products accurately, say clearly that you earn Commission, and never present
            yourself as the Seller or as Stackbay.
          </li>
          <li>Reseller privileges and payouts require completed KYC.</li>
        </ul>
        <p>
          Resellers do not take ownership of Products; the Seller remains responsible for supplying them and
          honouring their license terms.
        </p>
      </>
    ),
  },
  {
    id: "licensing",
    title: "Licensing",
    body: (
      <>
        <p>
          Software, SaaS and API Products are licensed, not sold. The license terms are set by the Seller and
          shown on the listing, and you must follow them, including any limits on users, devices or resale.
          Sellers confirm that they have the right to grant every license they sell.
        </p>
        <p>
          Stackbay grants you a limited, non-exclusive, non-transferable and revocable right to use the
          Platform for its intended purpose while you comply with these Terms.
        </p>
      </>
    ),
  },
  {
    id: "intellectual-property",
    title: "Intellectual property",
    body: (
      <>
        <p>
          The Platform, its software, design and the Stackbay name and logo belong to Stackbay FZCO or its
          licensors. Sellers keep ownership of their Products and listing content, and allow us to display,
          format and promote that content on and around the Platform.
        </p>
        <p>
          If you believe content on Stackbay infringes your rights, write to{" "}
          <a href="mailto:legal@stackbay.test">legal@stackbay.test</a> with details of the work and where it
          appears. We review every notice and may remove the content.
        </p>
      </>
    ),
  },
  {
    id: "privacy",
    title: "Privacy",
    body: (
      <p>
        How we collect, use and store personal data is described in our{" "}
        <Link to={paths.privacy()}>Privacy Policy</Link>. Sellers and Resellers who receive personal data
        through Stackbay may use it only to fulfil, support or track the Orders concerned, and must protect it
        as data-protection law requires.
      </p>
    ),
  },
  {
    id: "regional-jurisdiction",
    title: "Regional jurisdiction",
    body: (
      <>
        <p>
          These Terms are governed by the laws of the United Arab Emirates. Please contact us first so we can
          try to settle any dispute informally. Disputes that cannot be settled that way are resolved by
          arbitration under UAE law, and the courts of Dubai have jurisdiction over any matter that is not
          arbitrated, including urgent relief.
        </p>
        <p>
          Some Products may not be available in every country, and you are responsible for complying with
          local rules that apply to your purchase. Where the law of your country gives you rights that cannot
          be waived by contract, these Terms do not take them away.
        </p>
      </>
    ),
  },
  {
    id: "termination",
    title: "Termination",
    body: (
      <>
        <p>
          You may close your account at any time from your dashboard, once open Orders, refunds and disputes
          are settled. We may suspend or close an account that breaks these Terms, appears on a sanctions
          list, is involved in fraud, or must be closed by law; we give notice and reasons where we lawfully
          can.
        </p>
        <p>Accounts inactive for more than 12 months may be terminated after we notify you.</p>
        <p>
          After termination, licenses you have already paid for continue under their own terms, and payouts
          already due are paid, subject to any holds described above. Sections that by their nature should
          survive, such as payment obligations and liability, continue to apply.
        </p>
      </>
    ),
  },
  {
    id: "limitation-of-liability",
    title: "Limitation of liability",
    body: (
      <>
        <p>
          Stackbay provides the Platform "as is". Sellers, not Stackbay, are responsible for the Products they
          supply. We are not liable for indirect or consequential losses, such as lost profits, revenue or
          data.
        </p>
        <p>
          Our total liability to you for any claim is limited to the amount you paid to Stackbay in the 6
          months before the event that gave rise to the claim. Nothing in these Terms limits liability that
          the law does not allow to be limited, such as liability for fraud or wilful misconduct.
        </p>
      </>
    ),
  },
  {
    id: "modifications",
    title: "Modifications",
    body: (
      <>
        <p>
          We may change these Terms as the Platform, our services or the law change. The effective date at the
          top of this page shows the current version. We announce material changes by e-mail or in the
          dashboard before they take effect.
        </p>
        <p>
          If you continue to use Stackbay after a change takes effect, you accept the new Terms. If you do not
          agree, you may close your account before then.
        </p>
      </>
    ),
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <>
        <p>For questions about these Terms, contact:</p>
        <Card asChild className="p-5 not-italic" flat>
          <address>
            <strong>Stackbay FZCO</strong>
            <br />
            Dubai Silicon Oasis, Dubai, UAE
            <br />
            Legal: <a href="mailto:legal@stackbay.test">legal@stackbay.test</a>
            <br />
            Privacy: <a href="mailto:privacy@stackbay.test">privacy@stackbay.test</a>
          </address>
        </Card>
        <p>
          We answer legal and compliance requests within 5 business days. For everything else, visit our{" "}
          <Link to={paths.contact()}>contact page</Link>.
        </p>
      </>
    ),
  },
];

export function Component() {
  return (
    <LegalDocument
      title="Terms of Service"
      effectiveDate="01/06/2025"
      effectiveDateTime="2025-06-01"
      intro={
        <p>
          These Terms set out the rules for buying, selling, reselling and promoting technology products on
          Stackbay, and what you and we can expect from each other. Please read them carefully: by using the
          marketplace you agree to them.
        </p>
      }
      sections={sections}
    />
  );
}
