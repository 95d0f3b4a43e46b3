import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@client/components/ui/button';

/** A page that cannot show its document: why, and one way back (the shared page's and the member page's). */
export function PageNotice({
  icon,
  title,
  text,
  backLabel,
}: {
  icon: ReactNode;
  title: string;
  text: string;
  backLabel: string;
}) {
  return (
    <div className="mx-auto max-w-md py-16 text-center" role="alert">
      <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-muted">
        {icon}
      </div>
      <h1 className="text-xl font-semibold">{title}</h1>
      <p className="mt-2 text-sm text-muted-foreground">{text}</p>
      <Button asChild variant="outline" className="mt-6">
        <Link href="/">{backLabel}</Link>
      </Button>
    </div>
  );
}
