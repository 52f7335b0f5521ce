/**
 * `/terms`: the terms a new account accepts at sign-up. Plain words, kept short; the fees are the
 * ones the app charges (shared/constants.ts).
 */
import { FEES } from '../../../shared/constants';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;

export default function TermsPage() {
  return (
    <main className="page narrow prose">
      <h1>Terms of use</h1>
      <p>
        These terms apply to everyone who uses Creative Gigs, a marketplace where creatives post gigs and apply to each
        other's gigs. By creating an account you accept them.
      </p>

      <h2>Your account</h2>
      <p>
        Give your real name and an email address you read, keep your password to yourself, and tell us if you think
        someone else is using your account. You are responsible for what is done with it.
      </p>

      <h2>Gigs, applications and offers</h2>
      <p>
        A buyer describes the work, its budget and its deadline honestly. A freelancer applies with their own rate. The
        buyer then sends a final budget as an offer; the work is agreed once the freelancer accepts it and the buyer has
        paid. A gig marked passion driven is unpaid, and everyone taking part knows it.
      </p>

      <h2>Fees and payments</h2>
      <ul>
        <li>
          When a buyer pays for accepted work, a service fee of {percent(FEES.buyerServiceFeeRate)} of the final budget
          is added on top. The buyer sees the base, the fee and the total before paying.
        </li>
        <li>
          When the buyer marks the work complete, the freelancer is paid the final budget less a platform fee of{' '}
          {percent(FEES.platformFeeRate)}: {percent(1 - FEES.platformFeeRate)} goes to the freelancer.
        </li>
        <li>
          Payments are handled by our payment provider. A freelancer needs a payout account to receive money; payouts
          for completed work wait until one is set up.
        </li>
        <li>
          Mark work complete only when it has been delivered: completion releases the payment and cannot be undone.
          Disagreements about a delivery are settled between buyer and freelancer first; write to us if you cannot
          agree.
        </li>
      </ul>

      <h2>Conduct</h2>
      <ul>
        <li>Be respectful in gigs, applications and chats. No harassment, hate, threats or spam.</li>
        <li>Post only work and portfolio links you have the right to share, and keep the rights of other creatives.</li>
        <li>Keep payment for gigs found here on the platform, so both sides are covered by these terms.</li>
        <li>Nothing illegal, no fake gigs, no fake applications.</li>
      </ul>
      <p>We may remove content or close accounts that break these terms.</p>

      <h2>Your content and data</h2>
      <p>
        What you post stays yours; you let us show it to the people the app shows it to. We keep your email and payout
        details to ourselves and use them only to run the marketplace.
      </p>

      <h2>Changes</h2>
      <p>
        We may update these terms. If a change matters, we tell you in the app before it applies; using the app
        afterwards means you accept the new terms.
      </p>
    </main>
  );
}
