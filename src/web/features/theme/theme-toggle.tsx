import { Moon, Sun } from "lucide-react";
import { useEffect } from "react";
import { Button } from "#web/components/ui/button";
import { applyTheme, setTheme, themeStore, useResolvedTheme } from "#web/features/theme/theme-store";

/** Switches between light and dark; from "System" it switches to the opposite of what is shown. */
export function ThemeToggle() {
  const theme = themeStore.use();
  const shown = useResolvedTheme();
  // Another tab may switch the theme; follow it.
  useEffect(() => applyTheme(theme), [theme]);
  const next = shown === "dark" ? "light" : "dark";
  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={`Switch to ${next} theme`}
      aria-pressed={shown === "dark"}
      onClick={() => setTheme(next)}
      data-testid="theme-toggle"
    >
      {shown === "dark" ? <Sun /> : <Moon />}
    </Button>
  );
}
