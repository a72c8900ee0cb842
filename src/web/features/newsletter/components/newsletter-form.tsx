import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { type NewsletterInput, newsletterSchema } from "#domain/newsletter";
import { Button } from "#web/components/ui/button";
import { Input } from "#web/components/ui/input";
import { useSubscribe } from "#web/features/newsletter/api/subscribe";

export function NewsletterForm() {
  const subscribe = useSubscribe();
  const form = useForm<NewsletterInput>({
    resolver: zodResolver(newsletterSchema),
    defaultValues: { email: "" },
  });
  const error = form.formState.errors.email?.message;
  const [sent, setSent] = useState(false);

  const onSubmit = form.handleSubmit((values) =>
    subscribe.mutateAsync(values).then(
      () => {
        toast.success("Thank you for subscribing!", {
          description: "You'll receive our latest updates and offers.",
        });
        form.reset();
        setSent(true);
      },
      (failure: Error) => toast.error("Subscription failed", { description: failure.message }),
    ),
  );

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
