/** A list's new webhook signing secret: shown once, never again. */
export function SecretOnce({ secret }: { secret: string }) {
  return (
    <div className="secret-once" role="status">
      <p>
        Webhook signing secret. Copy it now: it is shown <strong>once</strong> and never again.
      </p>
      <code>{secret}</code>
    </div>
  );
}
