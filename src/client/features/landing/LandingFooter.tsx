import { Link } from 'wouter';
import { PRODUCT_NAME } from '@shared/constants';
import { Logo } from '@client/components/Logo';

const linkClass = 'rounded-sm text-muted-foreground transition-colors hover:text-foreground';

export function LandingFooter() {
  return (
    <footer className="border-t">
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-12 sm:px-6 md:flex-row md:items-start md:justify-between">
        <div className="max-w-xs">
          <Logo />
          <p className="mt-3 text-sm text-muted-foreground">
            The modern writer&rsquo;s workshop. AI-powered writing that feels like your own thoughts.
          </p>
        </div>
        <nav aria-label="Footer" className="grid grid-cols-2 gap-8 text-sm sm:gap-16">
          <div>
            <h2 className="font-semibold">Product</h2>
            <ul className="mt-3 space-y-2">
              <li>
                <a href="#features" className={linkClass}>
                  Features
                </a>
              </li>
              <li>
                <a href="#pricing" className={linkClass}>
                  Pricing
                </a>
              </li>
              <li>
                <Link href="/status" className={linkClass}>
                  Status
                </Link>
              </li>
            </ul>
          </div>
          <div>
            <h2 className="font-semibold">Legal</h2>
            <ul className="mt-3 space-y-2">
              <li>
                <Link href="/privacy" className={linkClass}>
                  Privacy Policy
                </Link>
              </li>
              <li>
                <Link href="/terms" className={linkClass}>
                  Terms of Service
                </Link>
              </li>
            </ul>
          </div>
        </nav>
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-6xl px-4 py-6 text-sm text-muted-foreground sm:px-6">
          © {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
