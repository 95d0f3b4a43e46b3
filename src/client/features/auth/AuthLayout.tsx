import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PRODUCT_NAME } from '@shared/constants';
import { Logo } from '@client/components/Logo';
import { Card, CardContent, CardDescription, CardHeader } from '@client/components/ui/card';

/** Centered card used by the e-mailed-link pages (reset password, confirm sign-up). */
export function AuthLayout({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col bg-background">
      <header className="px-6 py-5">
        <Link href="/" className="inline-flex rounded-lg" aria-label={`${PRODUCT_NAME} home`}>
          <Logo />
        </Link>
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-[8vh] pb-16">
        <Card className="w-full max-w-md shadow-lg">
          <CardHeader>
            <h1 className="text-xl leading-tight font-semibold tracking-tight">{title}</h1>
            {description ? <CardDescription>{description}</CardDescription> : null}
          </CardHeader>
          <CardContent>{children}</CardContent>
        </Card>
      </main>
    </div>
  );
}
