import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { type NewsletterInput, newsletterSchema } from "#domain/newsletter";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { useSubscribe } from "#web/features/newsletter/api/subscribe";
import { runMutation } from "#web/lib/mutation";

export function NewsletterForm() {
  const subscribe = useSubscribe();
  const form = useForm<NewsletterInput>({
    resolver: zodResolver(newsletterSchema),
    defaultValues: { email: "" },
  });
  const error = form.formState.errors.email?.message;
  const [sent, setSent] = useState(false);

  const onSubmit = form.handleSubmit(async (values) => {
    const result = await runMutation(subscribe.mutateAsync(values), {
      success: {
        title: "Thank you for subscribing!",
        description: "You'll receive our latest updates and offers.",
      },
      error: { title: "Subscription failed" },
    });
    if (!result.ok) return;
    form.reset();
    setSent(true);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-2" aria-label="Newsletter">
      <label htmlFor="newsletter-email" className="text-sm font-semibold">
        Get deals and product news
      </label>
      <div className="flex gap-2">
        <Input
          id="newsletter-email"
          type="email"
          placeholder="you@company.com"
          autoComplete="email"
          aria-invalid={Boolean(error)}
          aria-describedby={error ? "newsletter-error" : undefined}
          {...form.register("email")}
        />
        <Button type="submit" disabled={subscribe.isPending}>
          {subscribe.isPending ? "Subscribing..." : "Subscribe"}
        </Button>
      </div>
      {error ? (
        <p id="newsletter-error" className="text-sm text-destructive">
          {error}
        </p>
      ) : (
        sent && (
          <p className="text-sm text-muted-foreground" role="status">
            Check your inbox: confirm with the link we e-mailed you.
          </p>
        )
      )}
    </form>
  );
}
